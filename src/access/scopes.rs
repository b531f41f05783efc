//! Who may do what: the published scopes, the internal permissions they grant,
//! and the one table that says which scopes and permissions each operation
//! needs. REST routes and agent tools both name an `Operation` and ask this
//! table; neither keeps a list of its own.

use crate::error::said::Access;
use crate::error::{Error, Result};

/// A published scope, as keys carry them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    CustomersRead,
    CustomersWrite,
    InvoicesRead,
    InvoicesWrite,
    TransactionsRead,
    TransactionsWrite,
    ReportsRead,
    CompaniesRead,
    WebhooksWrite,
}

/// An internal permission: what actually decides access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Permission {
    ViewCustomers,
    EditCustomers,
    ViewInvoices,
    EditInvoices,
    ViewCompanySettings,
    ViewTransactions,
    EditTransactions,
    ViewReports,
    ManageWebhooks,
}

/// Each scope, its published name and the permission it grants.
const SCOPES: &[(Scope, &str, Permission)] = &[
    (
        Scope::CustomersRead,
        "customers:read",
        Permission::ViewCustomers,
    ),
    (
        Scope::CustomersWrite,
        "customers:write",
        Permission::EditCustomers,
    ),
    (
        Scope::InvoicesRead,
        "invoices:read",
        Permission::ViewInvoices,
    ),
    (
        Scope::InvoicesWrite,
        "invoices:write",
        Permission::EditInvoices,
    ),
    (
        Scope::TransactionsRead,
        "transactions:read",
        Permission::ViewTransactions,
    ),
    (
        Scope::TransactionsWrite,
        "transactions:write",
        Permission::EditTransactions,
    ),
    (Scope::ReportsRead, "reports:read", Permission::ViewReports),
    (
        Scope::CompaniesRead,
        "companies:read",
        Permission::ViewCompanySettings,
    ),
    (
        Scope::WebhooksWrite,
        "webhooks:write",
        Permission::ManageWebhooks,
    ),
];

impl Scope {
    pub const ALL: [Scope; 9] = [
        Scope::CustomersRead,
        Scope::CustomersWrite,
        Scope::InvoicesRead,
        Scope::InvoicesWrite,
        Scope::TransactionsRead,
        Scope::TransactionsWrite,
        Scope::ReportsRead,
        Scope::CompaniesRead,
        Scope::WebhooksWrite,
    ];

    fn row(self) -> &'static (Scope, &'static str, Permission) {
        SCOPES
            .iter()
            .find(|(s, _, _)| *s == self)
            .expect("every scope has a row")
    }

    pub fn name(self) -> &'static str {
        self.row().1
    }

    pub fn permission(self) -> Permission {
        self.row().2
    }

    /// Reads a published scope name.
    ///
    /// Fails with `Invalid` for a name that is not a scope.
    pub fn parse(name: &str) -> Result<Scope> {
        SCOPES
            .iter()
            .find(|(_, n, _)| *n == name.trim())
            .map(|(s, _, _)| *s)
            .ok_or_else(|| {
                let known: Vec<&str> = SCOPES.iter().map(|(_, n, _)| *n).collect();
                Error::invalid(
                    "scopes",
                    Access::NotScope {
                        got: name.to_string(),
                        known: known.iter().map(|k| k.to_string()).collect(),
                    },
                )
            })
    }

    /// Reads a comma-separated list (`all` or `*` for every scope), sorted and deduplicated.
    ///
    /// Fails with `Invalid` for an unknown name or an empty list.
    pub fn parse_list(text: &str) -> Result<Vec<Scope>> {
        let mut scopes = if matches!(text.trim(), "all" | "*") {
            Scope::ALL.to_vec()
        } else {
            text.split(',')
                .filter(|s| !s.trim().is_empty())
                .map(Scope::parse)
                .collect::<Result<Vec<_>>>()?
        };
        if scopes.is_empty() {
            return Err(Error::invalid("scopes", Access::NoScope));
        }
        scopes.sort();
        scopes.dedup();
        Ok(scopes)
    }
}

impl Permission {
    pub fn name(self) -> &'static str {
        match self {
            Permission::ViewCustomers => "VIEW_CUSTOMERS",
            Permission::EditCustomers => "EDIT_CUSTOMERS",
            Permission::ViewInvoices => "VIEW_INVOICES",
            Permission::EditInvoices => "EDIT_INVOICES",
            Permission::ViewCompanySettings => "VIEW_COMPANY_SETTINGS",
            Permission::ViewTransactions => "VIEW_TRANSACTIONS",
            Permission::EditTransactions => "EDIT_TRANSACTIONS",
            Permission::ViewReports => "VIEW_REPORTS",
            Permission::ManageWebhooks => "MANAGE_WEBHOOKS",
        }
    }
}

/// The permissions a set of scopes grants, sorted.
pub fn permissions_of(scopes: &[Scope]) -> Vec<Permission> {
    let mut perms: Vec<Permission> = scopes.iter().map(|s| s.permission()).collect();
    perms.sort();
    perms.dedup();
    perms
}

/// Everything a key can ask for, whatever the surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Me,
    ListCustomers,
    GetCustomer,
    CreateCustomer,
    ListTransactions,
    GetTransaction,
    CreateTransaction,
    UpdateTransaction,
    AddTransactionNote,
    ListInvoices,
    GetInvoice,
    CreateDraft,
    OutstandingReport,
    ManageWebhooks,
}

use Permission as P;
use Scope as S;

/// The access table: for each operation, the scopes and the permissions it
/// needs. A `match`, so an operation without a row does not compile.
fn access(op: Operation) -> (&'static [Scope], &'static [Permission]) {
    use Operation as O;
    const TRANSACTION_WRITE: (&[Scope], &[Permission]) = (
        &[S::TransactionsWrite, S::TransactionsRead],
        &[P::EditTransactions, P::ViewTransactions],
    );
    match op {
        O::Me => (&[], &[]),
        O::ListCustomers | O::GetCustomer => (&[S::CustomersRead], &[P::ViewCustomers]),
        O::CreateCustomer => (&[S::CustomersWrite], &[P::EditCustomers]),
        O::ListTransactions | O::GetTransaction => (&[S::TransactionsRead], &[P::ViewTransactions]),
        O::CreateTransaction | O::UpdateTransaction | O::AddTransactionNote => TRANSACTION_WRITE,
        O::ListInvoices | O::GetInvoice => (&[S::InvoicesRead], &[P::ViewInvoices]),
        O::CreateDraft => (
            &[S::InvoicesWrite, S::CustomersRead, S::CompaniesRead],
            &[P::EditInvoices, P::ViewCompanySettings, P::ViewCustomers],
        ),
        O::OutstandingReport => (&[S::ReportsRead], &[P::ViewReports]),
        O::ManageWebhooks => (&[S::WebhooksWrite], &[P::ManageWebhooks]),
    }
}

impl Operation {
    /// The scopes and permissions this operation needs.
    pub fn needs(self) -> (&'static [Scope], &'static [Permission]) {
        access(self)
    }

    /// Whether a key holding `scopes` may perform this operation.
    pub fn allowed_for(self, scopes: &[Scope]) -> bool {
        let (need_scopes, need_perms) = self.needs();
        let perms = permissions_of(scopes);
        need_scopes.iter().all(|s| scopes.contains(s))
            && need_perms.iter().all(|p| perms.contains(p))
    }
}
