//! Why saved pages cannot be read: each error says which file, and where in it.

/// Why pages cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PageError {
    /// Not JSON.
    #[error("{file}:{line}:{column}: not a page of the API: {why}")]
    Json {
        /// The page's file.
        file: String,
        /// Where.
        line: usize,
        /// Where.
        column: usize,
        /// serde_json's words.
        why: String,
    },
    /// The API's error object.
    #[error("{file}: the API answered with error {id} {name}: {message}")]
    Api {
        /// The page's file.
        file: String,
        /// `error_id`.
        id: i64,
        /// `error_name`.
        name: String,
        /// `error_message`.
        message: String,
    },
    /// No `items`.
    #[error("{file}: no `items`: not an answers page of the API")]
    NoItems {
        /// The page's file.
        file: String,
    },
    /// An item that is not an answer.
    #[error("{file}: items[{index}]: {why}")]
    Item {
        /// The page's file.
        file: String,
        /// The item's place.
        index: usize,
        /// Why.
        why: String,
    },
    /// The same answer twice.
    #[error("answer_id {id} is given twice: {first} and {again}")]
    Duplicate {
        /// The id.
        id: u64,
        /// Its first place.
        first: String,
        /// Its second.
        again: String,
    },
}
