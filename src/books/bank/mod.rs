//! The company's bank: its bank accounts (`accounts`), the statement files
//! imported into them (`import`: one transaction a file, duplicates counted
//! at three levels), their lines (`lines`) matched against the open items
//! (`items`, read from the books; `matching`, the ladder, pure; `keys`, how
//! an entry is known again), what a line does to the books through the one
//! settlement act (`apply`), and a person's acts on a line (`acts`).

pub mod accounts;
pub mod acts;
pub mod apply;
pub mod import;
pub mod items;
pub mod entry_keys;
pub mod lines;
pub mod matching;
