"""Front end: source files and includes, preprocessor, expressions, parse, Program, resolve, validate,
diagnostics. Imports nothing from sim/, analysis/ or the commands: data flows out of here."""
