//! `--sandbox`: whether a console command acts in test mode. A leaf the
//! command-line files share.

use clap::Args;

use crate::store::tenant::Environment;

/// Act in test mode (the sandbox books) instead of production.
#[derive(Args, Debug, Clone, Copy)]
pub struct Mode {
    #[arg(long)]
    pub sandbox: bool,
}

impl Mode {
    pub fn environment(self) -> Environment {
        if self.sandbox {
            Environment::Sandbox
        } else {
            Environment::Production
        }
    }
}
