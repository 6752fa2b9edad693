//! The restore plugin: joins the live records to the panes agterm brought back and types each pane's
//! resume line where it is safe; also `status`, `answer`, `snap` and `timer`.
