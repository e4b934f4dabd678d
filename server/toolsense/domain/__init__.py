"""The domain: what the rules and the editor features know about tools, automations and calls, free of rule
codes' wording and of positions. Between the engine (units, findings) and its two users, `rules` and `features`.

- `tool`: a tool definition's view (name, dialect, schema, where each lives), schema walks, content memos.
- `automation`: an automation's view and every template and condition path in it; `scope`: what those names
  resolve to at each place; `shapes`: the data behind them (outputs, trigger data, samples) and `Env`.
- `templates`: the `{{ }}` template syntax and the built-in names.
- `validation`: a value against a pydantic model, all errors at once in one wording; `instances` and
  `validators`: a value against a JSON Schema, offline and bounded, in the same words.
- `providers`: each provider profile's name rule, dated limits and strict subset; the budget maths.
- `live`: how the editor keeps what a live MCP server check learnt.
"""
