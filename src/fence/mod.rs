//! Fence Posts: dots and boxes against a farmer (RULES.md section 2).
