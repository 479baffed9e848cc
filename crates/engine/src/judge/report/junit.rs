//! The JUnit XML report: a `<testsuite>` an answer, a `<testcase>` a case, with a failing
//! case's group cause, the run's diagnosis and the case's own text report.

use std::fmt::Write as _;

use super::text::text;
use super::{CaseReport, DiagnosisReport, Summary};
use crate::judge::escape::xml_escape;

/// One JUnit `<testsuite>`: an answer's cases, its diagnosis and its sandbox line.
#[derive(Clone, Copy, Debug)]
pub struct Suite<'a> {
    /// The suite's name.
    pub name: &'a str,
    /// Its cases.
    pub reports: &'a [CaseReport],
    /// Its diagnosis.
    pub diagnosis: &'a DiagnosisReport,
    /// How its answer was contained.
    pub sandbox: &'a str,
}

/// A JUnit XML report: one `<testsuite>` named `suite` with a `<testcase>` per case, and a
/// `<failure>` (type = the verdict) on each failing one, whose message is its group's
/// cause and whose text holds the run's diagnosis and the case's own report. The suite's
/// `sandbox` property says how the candidate was contained.
pub fn junit(suite: &str, reports: &[CaseReport], d: &DiagnosisReport, sandbox: &str) -> String {
    junit_suites(
        suite,
        &[Suite {
            name: suite,
            reports,
            diagnosis: d,
            sandbox,
        }],
    )
}

/// A JUnit XML report named `name` with one `<testsuite>` per answer, as [`junit`] makes
/// for one.
pub fn junit_suites(name: &str, suites: &[Suite]) -> String {
    let sums: Vec<Summary> = suites.iter().map(|x| Summary::of(x.reports)).collect();
    let tests: usize = suites.iter().map(|x| x.reports.len()).sum();
    let failures: usize = sums.iter().map(|x| x.failed).sum();
    let errors: usize = sums.iter().map(|x| x.internal).sum();
    let total: f64 = sums.iter().map(|x| x.time_total_ms).sum::<f64>() / 1000.0;
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{total:.3}\">",
        xml_escape(name)
    );
    for (x, sum) in suites.iter().zip(&sums) {
        suite_xml(&mut s, x, sum);
    }
    s += "</testsuites>\n";
    s
}

/// One `<testsuite>` element.
fn suite_xml(s: &mut String, x: &Suite, sum: &Summary) {
    let (reports, d) = (x.reports, x.diagnosis);
    let total = sum.time_total_ms / 1000.0;
    let suite = xml_escape(x.name);
    let _ = writeln!(
        s,
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{total:.3}\">",
        reports.len(),
        sum.failed,
        sum.internal
    );
    let _ = writeln!(
        s,
        "    <properties>\n      <property name=\"sandbox\" value=\"{}\"/>\n    </properties>",
        xml_escape(x.sandbox)
    );
    for r in reports {
        let _ = write!(
            s,
            "    <testcase name=\"{}\" classname=\"{suite}\" time=\"{:.3}\"",
            xml_escape(&r.name),
            r.time_ms / 1000.0
        );
        if r.passed {
            *s += "/>\n";
            continue;
        }
        if !r.verdict.judged() {
            // The judge's failure, not the answer's: an error, as JUnit tells a test
            // that could not run from one that failed.
            let message = r
                .detail
                .as_ref()
                .map_or_else(String::new, ToString::to_string);
            let _ = writeln!(
                s,
                ">\n      <error type=\"IE\" message=\"{}\">{}</error>\n    </testcase>",
                xml_escape(&message),
                xml_escape(&text(r))
            );
            continue;
        }
        let message = d
            .group_of(&r.name)
            .map(|g| g.cause.clone())
            .or_else(|| r.detail.as_ref().map(ToString::to_string))
            .unwrap_or_else(|| r.verdict.code().to_string());
        let body = format!("diagnosis: {}\n{}", d.sentence, text(r));
        let _ = writeln!(
            s,
            ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
            r.verdict.code(),
            xml_escape(&message),
            xml_escape(&body)
        );
    }
    *s += "  </testsuite>\n";
}

#[cfg(test)]
mod tests {
    use super::super::tests::{diagnosis, report};
    use super::*;
    use crate::judge::verdict::Verdict;

    #[test]
    fn junit_counts_failures_and_holds_the_report() {
        let rs = [
            report("ok", Verdict::Accepted),
            report("bad<1>", Verdict::RuntimeError),
        ];
        let x = junit("beast check", &rs, &diagnosis(), "sandbox: none");
        assert!(x.contains("tests=\"2\" failures=\"1\""), "{x}");
        assert!(x.contains("<testcase name=\"ok\""), "{x}");
        assert!(x.contains("<failure type=\"RTE\""), "{x}");
        assert!(x.contains("bad&lt;1&gt;"), "{x}");
        assert!(x.contains("diagnosis: it looks like a mistake"), "{x}");
        assert!(
            x.contains("<property name=\"sandbox\" value=\"sandbox: none\"/>"),
            "{x}"
        );
    }
}
