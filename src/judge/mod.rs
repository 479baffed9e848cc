//! Judging golf answers: verdicts, output comparison, case generation and shrinking.
