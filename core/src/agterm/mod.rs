//! agterm's control socket client, and agterm as a [`crate::terminal::Terminal`].
