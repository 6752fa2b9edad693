//! Process inspection: argv, real cwd, parent and start time of a process.
