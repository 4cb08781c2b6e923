//! `pbrain-gomoku`: the Gomocup pbrain protocol on standard input and output, for Piskvork,
//! Yixin-Board, c-gomoku-cli and tournament managers (which require the `pbrain-` prefix).
//! It runs the protocol loop; `--help` and `--version` say what it is.

use std::process::ExitCode;

fn main() -> ExitCode {
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--version" | "-V" => {
                println!("pbrain-gomoku {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            "--help" | "-h" => {
                println!(
                    "pbrain-gomoku {}: a Gomoku / Renju engine speaking the Gomocup pbrain \
                     protocol on standard input and output.\nStart it without arguments from a \
                     manager or GUI (Piskvork, Yixin-Board, c-gomoku-cli); see docs/protocol.md.",
                    env!("CARGO_PKG_VERSION")
                );
                return ExitCode::SUCCESS;
            }
            // Yixin-Board starts its engine as `engine.exe --force-utf8`; our output is ASCII
            "--force-utf8" => {}
            // a GUI's option we do not know must not keep the brain from starting
            other => eprintln!("pbrain-gomoku: ignoring the argument '{other}'"),
        }
    }
    gomoku_app::system::configure_engine();
    if let Err(e) = gomoku_app::eval_model::install_from_env()
        .and_then(|()| gomoku_app::args::search::install_params_from_env())
    {
        // the manager sees the reason as the brain's error line
        println!("ERROR {e:#}");
        return ExitCode::FAILURE;
    }
    gomoku_app::pbrain::run_stdio();
    ExitCode::SUCCESS
}
