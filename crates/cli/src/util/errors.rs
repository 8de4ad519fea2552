//! Error messages for the terminal: an error and its causes, each said once.
//!
//! The libraries' errors name their file and quote their cause in their own message (`cannot
//! read x/set.json: No such file or directory`) and also expose the cause as their
//! [`source`](std::error::Error::source), so that callers can inspect it. anyhow's alternate
//! form (`{:#}`) prints every link of the chain, which would say the cause twice. [`message`]
//! joins the links with `: ` and leaves out a link whose text the message already holds.

/// The error's chain of causes joined with `: `, each cause once.
pub(crate) fn message(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if text.is_empty() || out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::message;
    use anyhow::Context;

    /// A library error that quotes its source, as the workspace's errors do.
    #[derive(Debug)]
    struct Quoting(std::io::Error);

    impl std::fmt::Display for Quoting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "cannot read set.json: {}", self.0)
        }
    }

    impl std::error::Error for Quoting {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_cause_the_message_already_quotes_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = Err::<(), _>(Quoting(io))
            .context("cannot open annotated pages")
            .unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "cannot open annotated pages: cannot read set.json: no such file: no such file"
        );
        assert_eq!(
            message(&e),
            "cannot open annotated pages: cannot read set.json: no such file"
        );
    }

    #[test]
    fn causes_the_message_does_not_quote_are_kept() {
        let io = std::io::Error::other("disk full");
        let e = anyhow::Error::new(io).context("cannot write out/a.txt");
        assert_eq!(message(&e), "cannot write out/a.txt: disk full");
    }
}
