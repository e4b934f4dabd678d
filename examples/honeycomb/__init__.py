"""The seed's worked example (000, "Tool Schema Validation Refactor"), as a user project would have it.

Strict input models for the Honeycomb board and SLO tools, built on `toolsense.models` (StrictModel: extra keys
forbidden, enums by value; the enum schema helpers: one description per enum). The tool definitions in
`examples/tools/honeycomb_*.json` are generated from them:

    toolsense schema honeycomb.tool_inputs:BoardToolInput --python-path examples \
        --tool honeycomb_create_board --description "..." > examples/tools/honeycomb_create_board.json

and `examples/toolsense.toml` registers them, so tool calls are validated by these very models and the
definitions are checked for drift against them.
"""
