"""The judging core: one record in; its verdict, its steps, its token and its words out."""
