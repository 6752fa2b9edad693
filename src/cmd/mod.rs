//! One file per subcommand, each a small `run`.

mod answer;
mod completions;
mod init;
mod installer;
mod restart;
mod restore;
mod shell_answer;
mod shell_start;
mod snap;
mod status;
mod timer;

use crate::cli::{Cli, Command, InstallerCommand};
use crate::CliResult;

pub fn run(cli: Cli) -> CliResult {
    let socket = cli.socket;
    match cli.command {
        Command::Installer(InstallerCommand::Apply(a)) | Command::Install(a) => installer::apply(a),
        Command::Installer(InstallerCommand::Remove(a)) | Command::Uninstall(a) => {
            installer::remove(a)
        }
        Command::Installer(InstallerCommand::Status(a)) => installer::status(a),
        Command::Hook(a) => {
            agterm_backup_hook::run_from_env(&a.agent);
            Ok(())
        }
        // `--socket` after the command, else before it (as older releases took it).
        Command::Status(a) => {
            let socket = a.bare.socket.clone().or(socket);
            status::run(a, socket)
        }
        Command::Restore(a) => {
            let socket = a.socket.clone().or(socket);
            restore::run(a, socket)
        }
        Command::Restart(a) => {
            let socket = a.socket.clone().or(socket);
            restart::run(a, socket)
        }
        Command::Answer(a) => {
            let socket = a.bare.socket.clone().or(socket);
            answer::run(a, socket)
        }
        Command::Snap(a) => {
            let socket = a.bare.socket.clone().or(socket);
            snap::run(a, socket)
        }
        Command::Timer(a) => timer::run(a),
        Command::Init(a) => init::run(a),
        Command::ShellStart(a) => {
            let socket = a.bare.socket.clone().or(socket);
            shell_start::run(a, socket)
        }
        Command::ShellAnswer(a) => {
            let socket = a.bare.socket.clone().or(socket);
            shell_answer::run(a, socket)
        }
        Command::Terminal(c) => {
            c.run();
            Ok(())
        }
        Command::Completions(a) => completions::run(a),
        Command::Man => completions::man(),
    }
}
