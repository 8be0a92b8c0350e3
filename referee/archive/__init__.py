"""Archives from elsewhere and for elsewhere: AbstractPlay's game records in and out
(`referee.archive.abstractplay`), read as a stream of JSON values
(`referee.archive.jsonstream`)."""
