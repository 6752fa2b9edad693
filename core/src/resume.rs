//! The resume line: `cd <agent_cwd> && <agent> <resume grammar with id> <kept flags>`.
