//! The brain's output: whole lines, flushed at once, shared by the command loop and the
//! thinking thread.

use std::fmt;
use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

struct Sink {
    writer: Box<dyn Write + Send>,
    closed: bool,
}

/// A line-oriented output that several threads may write to; each line is written and
/// flushed whole, so lines never interleave. After [`Output::close`] (at `END`) or a write
/// error (the manager went away), lines are dropped.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Sink>>);

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Output")
    }
}

impl Output {
    /// Output to `writer`.
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Sink {
            writer: Box::new(writer),
            closed: false,
        })))
    }

    fn sink(&self) -> MutexGuard<'_, Sink> {
        // a panic while holding the lock cannot leave a half line behind: keep going
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes one line (any line breaks inside become spaces: one line is one message).
    pub fn line(&self, text: &str) {
        let mut sink = self.sink();
        if sink.closed {
            return;
        }
        let text = text.replace(['\r', '\n'], " ");
        let ok = writeln!(sink.writer, "{text}").and_then(|()| sink.writer.flush());
        if ok.is_err() {
            sink.closed = true;
        }
    }

    /// Drops every later line (the protocol wants silence after `END`).
    pub fn close(&self) {
        self.sink().closed = true;
    }
}

/// A writer whose bytes the test keeps a handle on, to read what was written.
#[cfg(test)]
#[derive(Clone, Default)]
pub(crate) struct Shared(Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Shared {
    /// Everything written so far.
    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

#[cfg(test)]
impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_whole_and_close_silences() {
        let buf = Shared::default();
        let out = Output::new(buf.clone());
        out.line("OK");
        out.line("MESSAGE two\nlines");
        out.close();
        out.line("7,7");
        let text = buf.text();
        assert_eq!(text, "OK\nMESSAGE two lines\n");
    }
}
