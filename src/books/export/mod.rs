//! The books handed over: the company's settings for its tax adviser
//! (`settings`), the account numbers of its partners and bank accounts
//! (`numbers`), each ledger entry as DATEV bookings on the chosen chart
//! (`bookings`), the DATEV export itself (`datev`) and the GoBD data medium
//! for a tax audit (`gobd`), and the register of exports made (`made`).

pub mod bookings;
pub mod datev;
pub mod gobd;
pub mod made;
pub mod numbers;
pub mod settings;
