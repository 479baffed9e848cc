//! The JSON of a saved Stack Exchange API 2.3 answers page
//! (`/2.3/questions/{id}/answers`, filter `withbody` or a custom one with
//! `body_markdown`): its items, its `has_more` and `page`, and the API's error object.
//! Read here, located: a bad page says which file, line and column, or which item.

use serde::Deserialize;

use super::error::PageError;

/// One page as the API wrote it: the wrapper's fields this judge reads.
#[derive(Debug, Deserialize)]
struct Wrapper {
    #[serde(default)]
    items: Option<Vec<serde_json::Value>>,
    #[serde(default)]
    has_more: Option<bool>,
    #[serde(default)]
    page: Option<u64>,
    #[serde(default)]
    error_id: Option<i64>,
    #[serde(default)]
    error_name: Option<String>,
    #[serde(default)]
    error_message: Option<String>,
}

/// One answer item of a page (the fields this judge reads; the others are ignored).
#[derive(Clone, Debug, Deserialize)]
pub struct Item {
    /// The answer's id.
    pub answer_id: u64,
    /// When it was posted (Unix seconds).
    #[serde(default)]
    pub creation_date: i64,
    /// Its votes.
    #[serde(default)]
    pub score: i64,
    /// Its author.
    #[serde(default)]
    pub owner: Option<Owner>,
    /// The rendered HTML (filter `withbody`).
    #[serde(default)]
    pub body: Option<String>,
    /// The Markdown source, HTML-encoded by the API's safe filter.
    #[serde(default)]
    pub body_markdown: Option<String>,
}

/// An answer's author.
#[derive(Clone, Debug, Deserialize)]
pub struct Owner {
    /// The name shown, HTML-encoded by the API.
    #[serde(default)]
    pub display_name: Option<String>,
}

/// One page read: its items, in order, and what it says of the pages after it.
#[derive(Debug)]
pub struct Page {
    /// The file it came from, for messages.
    pub file: String,
    /// Its answers.
    pub items: Vec<Item>,
    /// `has_more`: true when the API has pages after this one.
    pub has_more: bool,
    /// `page`, when the filter keeps it.
    pub page: Option<u64>,
}

/// Reads one page's text; `file` names it in errors.
pub fn read(file: &str, text: &str) -> Result<Page, PageError> {
    let wrapper: Wrapper = serde_json::from_str(text).map_err(|e| PageError::Json {
        file: file.to_string(),
        line: e.line(),
        column: e.column(),
        why: e.to_string(),
    })?;
    if wrapper.error_id.is_some() || wrapper.error_name.is_some() {
        return Err(PageError::Api {
            file: file.to_string(),
            id: wrapper.error_id.unwrap_or_default(),
            name: wrapper.error_name.unwrap_or_default(),
            message: wrapper.error_message.unwrap_or_default(),
        });
    }
    let Some(values) = wrapper.items else {
        return Err(PageError::NoItems {
            file: file.to_string(),
        });
    };
    let mut items = Vec::with_capacity(values.len());
    for (i, value) in values.into_iter().enumerate() {
        let item: Item = serde_json::from_value(value).map_err(|e| PageError::Item {
            file: file.to_string(),
            index: i,
            why: e.to_string(),
        })?;
        if item.body.is_none() && item.body_markdown.is_none() {
            return Err(PageError::Item {
                file: file.to_string(),
                index: i,
                why: format!(
                    "answer {} has neither `body` nor `body_markdown`: save the page with \
                     filter=withbody or a filter that keeps body_markdown",
                    item.answer_id
                ),
            });
        }
        items.push(item);
    }
    Ok(Page {
        file: file.to_string(),
        items,
        has_more: wrapper.has_more.unwrap_or(false),
        page: wrapper.page,
    })
}

/// Every item of the joined pages: its page's file, its place there, and the item.
pub type Joined = Vec<(String, usize, Item)>;

/// Joins pages in the order given; a duplicate `answer_id` is refused, naming both
/// places. Returns the items and whether pages are missing after the last one.
pub fn join(pages: Vec<Page>) -> Result<(Joined, bool), PageError> {
    let missing = pages.last().is_some_and(|p| p.has_more);
    let mut all: Joined = Vec::new();
    for page in pages {
        for (i, item) in page.items.into_iter().enumerate() {
            if let Some((file, index, _)) =
                all.iter().find(|(_, _, a)| a.answer_id == item.answer_id)
            {
                return Err(PageError::Duplicate {
                    id: item.answer_id,
                    first: format!("{file}: items[{index}]"),
                    again: format!("{}: items[{i}]", page.file),
                });
            }
            all.push((page.file.clone(), i, item));
        }
    }
    Ok((all, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_reads_and_pages_join() {
        let one = read(
            "p1.json",
            r#"{"items":[{"answer_id":1,"body":"<p>x</p>","owner":{"display_name":"A"}}],"has_more":true,"page":1}"#,
        )
        .expect("reads");
        assert!(one.has_more && one.page == Some(1));
        let two = read(
            "p2.json",
            r#"{"items":[{"answer_id":2,"body_markdown":"x"}],"has_more":false}"#,
        )
        .expect("reads");
        let (items, missing) = join(vec![one, two]).expect("joins");
        assert_eq!(items.len(), 2);
        assert!(!missing);
    }

    #[test]
    fn bad_pages_are_refused_where_they_go_wrong() {
        let e = read("p.json", "{\n  \"items\": [,]\n}").unwrap_err();
        assert!(e.to_string().starts_with("p.json:2:"), "{e}");
        let e = read(
            "p.json",
            r#"{"error_id":502,"error_message":"too many requests","error_name":"throttle_violation"}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("throttle_violation"), "{e}");
        let a = read("a.json", r#"{"items":[{"answer_id":7,"body":""}]}"#).expect("reads");
        let b = read(
            "b.json",
            r#"{"items":[{"answer_id":8,"body":""},{"answer_id":7,"body":""}]}"#,
        )
        .expect("reads");
        let e = join(vec![a, b]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "answer_id 7 is given twice: a.json: items[0] and b.json: items[1]"
        );
        let e = read("c.json", r#"{"items":[{"answer_id":9}]}"#).unwrap_err();
        assert!(e.to_string().starts_with("c.json: items[0]:"), "{e}");
    }
}
