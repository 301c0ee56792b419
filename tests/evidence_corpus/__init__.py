"""The evidence corpus: labelled cases of what a run's code left and what its model answered (see README.md)."""
