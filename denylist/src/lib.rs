//! agterm's `restore-denylist.conf`: parsed exactly as agterm parses it, and edited inside our own marker
//! comments so that `claude` and `codex` are not re-run bare by agterm after a restart.
