//! The company's bank: its bank accounts, the statements imported into
//! them, their lines and what each line settled. `matching` is the ladder
//! that proposes which open items a line pays; it reads no storage.

pub mod accounts;
pub mod keys;
pub mod lines;
pub mod matching;
