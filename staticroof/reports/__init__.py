"""Reports: format analysis summaries; they compute nothing new."""
