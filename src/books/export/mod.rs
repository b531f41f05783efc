//! The books handed over: the DATEV export for the tax adviser (each ledger
//! entry as bookings on the chosen chart, `bookings`) and the GoBD data
//! medium for a tax audit.

pub mod bookings;
