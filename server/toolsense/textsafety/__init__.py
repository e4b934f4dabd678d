"""Text from files, shown safely: the one place that decides which characters a reader must not be shown raw.

A tool's name, description or key, a path, a server's stderr: someone else wrote them. Raw, Unicode tag characters
carry hidden instructions, zero-width and bidi characters hide or reorder what a reviewer reads, a newline starts a
line (or a GitHub workflow command) of its own, ESC sequences drive the terminal. Each such character is shown as
`<U+XXXX>`. Two policies, one per kind of text:

- **messages** (`messages.py`: `safe_message`, `visible`, `escape`, `SafeMessage`) — a diagnostic's message and the
  file text it quotes keep what legitimate text needs: emoji sequences (👩‍💻, ❤️, flags), joiners in Persian or
  Hindi, a bidi mark in Hebrew (judged by `invisible.py`, which TS290 reports from too); everything else invisible
  or a control is escaped.
- **output** (`output.py`: `escape_controls`, `escape_line`, `EscapedLines`) — what the CLI prints (text, JSON,
  SARIF, GitHub annotations, JUnit, diffs, stderr) escapes every control, invisible or bidi character, legitimate or
  not, and the runner's legacy `##[` commands: output shows exactly what the file holds.
"""

from __future__ import annotations

from .invisible import CONTROL_CHARS as CONTROL_CHARS
from .invisible import INVISIBLE as INVISIBLE
from .invisible import INVISIBLE_CHARS as INVISIBLE_CHARS
from .invisible import MAX_VARIANTS as MAX_VARIANTS
from .invisible import HiddenRun as HiddenRun
from .invisible import hidden_runs as hidden_runs
from .invisible import is_selector as is_selector
from .invisible import kind_of as kind_of
from .invisible import spelled as spelled
from .invisible import spelling as spelling
from .invisible import tag_spelling as tag_spelling
from .invisible import without_hidden as without_hidden
from .messages import SafeMessage as SafeMessage
from .messages import escape as escape
from .messages import message_is_safe as message_is_safe
from .messages import safe_message as safe_message
from .messages import visible as visible
from .output import EscapedLines as EscapedLines
from .output import escape_controls as escape_controls
from .output import escape_line as escape_line
