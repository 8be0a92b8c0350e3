"""The referee: adjudication of records and the `referee` command line."""
