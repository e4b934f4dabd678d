"""Documents the end-to-end tests open."""

WEATHER_TOOLS = """[
  {
    "name": "get_weather",
    "description": "Weather for a city.",
    "input_schema": {
      "type": "object",
      "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"}
      },
      "required": ["city"],
      "additionalProperties": false
    },
    "input_examples": [{"city": "Paris", "unit": "kelvin"}],
    "bogus": 1
  }
]
"""

CLEAN_TOOL = """[
  {
    "name": "get_weather",
    "description": "Weather for a city.",
    "input_schema": {
      "type": "object",
      "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"}
      },
      "required": ["city"],
      "additionalProperties": false
    }
  }
]
"""

SEND_TOOL = """{
  "name": "send_message",
  "description": "Send a chat message to a channel.",
  "input_schema": {
    "type": "object",
    "properties": {
      "channel": {"type": "string", "description": "Channel id"},
      "priority": {"type": "string", "enum": ["low", "normal", "high"], "description": "How urgent it is"}
    },
    "required": ["channel"],
    "additionalProperties": false
  }
}
"""


def automation(tool: str) -> str:
    return f"""{{
  "name": "Morning report",
  "trigger_type": "manual",
  "actions": [
    {{"id": "send", "tool": "{tool}", "parameters": {{"channel": "general"}}}}
  ]
}}
"""
