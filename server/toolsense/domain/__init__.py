"""The domain: typed views of a tool, an automation and a call; scope resolution; template parsing;
provider tables. Between the engine (units, findings) and the rules and editor features that ask it."""
