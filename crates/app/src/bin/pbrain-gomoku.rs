//! `pbrain-gomoku`: the Gomocup pbrain protocol on standard input and output.

fn main() {
    eprintln!("the pbrain protocol is not built yet");
    std::process::exit(1);
}
