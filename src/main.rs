fn main() -> std::process::ExitCode {
    agterm_backup::main()
}
