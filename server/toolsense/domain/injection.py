"""Signals of instructions aimed at the model in a tool's texts, scored together (TS292, TS293).

A tool's description, parameter descriptions, enum values, defaults and examples all reach the model. Each text
is read as written and as decoded (tag characters spelled out, invisible characters removed, NFKC-folded, look-
alike letters folded, base64 / hex / percent / HTML-entity encodings decoded), and searched for signals of a
category: overriding instructions, secrecy from the user, `<IMPORTANT>`-style blocks, reading secrets, sending
data to an address, steering other tools, addressing the model, urgency. A tool is judged on the categories its
texts show together, so splitting the payload over fields does not hide it and one benign phrase (a webhook's URL,
"use this tool first") is not enough.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote

from ..document.jsontree import Pointer
from ..invisible import INVISIBLE, tag_spelling
from .hidden_text import CONFUSABLE_LETTERS

_I = re.IGNORECASE

OVERRIDE, SECRECY, BLOCK, SECRETS, EXFILTRATE, OTHER_TOOLS, ADDRESSED, URGENCY = (
    "overrides earlier instructions",
    "keeps it from the user",
    "an instruction block",
    "reads secrets or private files",
    "sends data to an address",
    "steers other tools",
    "addresses the model",
    "insists",
)
WEIGHTS = {OVERRIDE: 3, SECRECY: 2, BLOCK: 2, SECRETS: 2, EXFILTRATE: 2, OTHER_TOOLS: 2, ADDRESSED: 1, URGENCY: 1}

_TARGETS = r"(instructions?|prompts?|rules|directions|guidelines|guardrails|constraints|context|directives|orders)"
_SECRET_PLACES = (
    r"((~|\$home|%userprofile%|/home/\w+|/root)?/\.(ssh|aws|gnupg|kube|docker|cursor|netrc|npmrc|pypirc|"
    r"git-credentials|bash_history|zsh_history)\b|\bid_(rsa|ed25519|ecdsa)\b|\bmcp\.json\b|"
    r"claude_desktop_config|/etc/(passwd|shadow)\b|(^|[\s'\"`(])\.env\b|\bwallet\.dat\b|\bkeychain\b|"
    r"\bcookies\.sqlite\b)"
)
_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    OVERRIDE: (
        re.compile(
            r"\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|any|"
            r"other|system|your|existing|preceding|original)\b[^.\n]{0,30}\b" + _TARGETS,
            _I,
        ),
        re.compile(r"\bnew (system )?instructions?\s*:|\byou are now (in )?(developer|dan|admin|god)\b", _I),
        re.compile(
            r"ignor(a|ar|e|ez|er)\b[^.\n]{0,30}\b(instrucciones|instructions|instruções|istruzioni)\b|"
            r"ignorier\w*\b[^.\n]{0,30}\b(anweisungen|instruktionen)|"
            r"(игнорируй|проигнорируй|забудь)[^.\n]{0,40}(инструкци|указани)|"
            r"忽略[^。\n]{0,12}(指令|指示|说明|提示)|以前の指示を無視|前の指示を無視|이전 지시(를|사항을)? 무시",
            _I,
        ),
    ),
    SECRECY: (
        re.compile(
            r"\b(do not|don't|dont|never|must not|should not)\s+(tell|mention|inform|reveal|disclose|notify|alert|"
            r"show|let|explain)\b[^.\n]{0,30}\b(user|human|anyone|them)\b",
            _I,
        ),
        re.compile(
            r"\bwithout\s+(telling|informing|notifying|alerting|asking|mentioning|showing)\b[^.\n]{0,15}\b(user|human)\b|"
            r"\b(user|human)\b[^.\n]{0,20}\b(must|should|will|need) not\b[^.\n]{0,10}\b(know|see|notice|be told|"
            r"be informed|be aware)|\bhide (this|it|that)\b[^.\n]{0,20}\bfrom\b|\b(secretly|covertly)\b|"
            r"\bkeep (this|it) (a )?(secret|hidden|confidential)\b|"
            r"\b(never|do not|don't) (mention|reveal|disclose) (it|this|that)\b|"
            r"\b(user|human) (doesn't|does not) need to know\b",
            _I,
        ),
        re.compile(
            r"no (le )?(digas|menciones|informes|cuentes)[^.\n]{0,20}usuario|sin (decirle|avisar|informar)[^.\n]{0,15}"
            r"usuario|ne (le )?(dis|dites|mentionne[zs]?) (rien |pas )[^.\n]{0,20}utilisateur|sans (le )?(dire|"
            r"prévenir|informer)[^.\n]{0,15}utilisateur|(sag|erzähl|sage)\w* (es |das )?dem (benutzer|nutzer) nicht|"
            r"ohne (den|dass der) (benutzer|nutzer)|不要(告诉|通知|让)用户|不要让用户知道|"
            r"ユーザーに(伝え|言わ|知らせ)ない|"
            r"не (говори|сообщай|рассказывай)[^.\n]{0,15}пользовател",
            _I,
        ),
    ),
    BLOCK: (
        re.compile(
            r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin|override|critical|prompt|assistant|"
            r"context)\s*>|\[\s*(system|important|instructions?|admin)\s*\]|<!--|"
            r"\bsystem (instruction|note|message|override|directive|prompt update)s?\s*:",
            _I,
        ),
    ),
    SECRETS: (
        re.compile(
            r"\b(read|cat|open|include|pass|attach|collect|extract|copy|dump|upload|send|provide|retrieve|gather|"
            r"forward|append|embed|access|load|contents? of|leer|lire|lesen|读取|прочитай)\b[^.\n]{0,60}"
            + _SECRET_PLACES,
            _I,
        ),
        re.compile(_SECRET_PLACES + r"[^.\n]{0,40}\b(contents?|file|and (pass|send|include|put))\b", _I),
        re.compile(
            r"\b(read|cat|open|include|pass|attach|collect|extract|copy|dump|upload|send|provide|retrieve|gather|"
            r"forward|append|embed|put|leer|lire|lesen)\b[^.\n]{0,50}\b(api[ _-]?keys?|private keys?|credentials|"
            r"passwords?|access tokens?|secrets|environment variables|ssh keys?|conversation history|chat history|"
            r"system prompt|previous messages|seed phrase|mnemonic)\b",
            _I,
        ),
    ),
    EXFILTRATE: (
        re.compile(
            r"\b(send|post|upload|forward|transmit|exfiltrate|email|e-mail|mail|bcc|cc|copy|report|leak|"
            r"redirect|route|deliver|enviar?|envoie[rz]?|senden)\b[^\n]{0,80}?"
            r"(https?://[^\s\"'<>]+|\b[\w.+-]+@[\w-]+\.[\w.-]+\b)",
            _I,
        ),
        re.compile(
            r"\b(include|put|pass|add|append|embed|encode)\b[^.\n]{0,60}\b(in|into|as|to)\b[^.\n]{0,20}"
            r"\b(the )?[`'\"]?\w+[`'\"]? (parameter|argument|field)\b[^.\n]{0,60}\b(content|contents|"
            r"key|keys|token|secret|file|history|credentials|password)s?\b",
            _I,
        ),
    ),
    OTHER_TOOLS: (
        re.compile(
            r"\b(when|whenever|if|while|once)\b[^.\n]{0,40}\b(this tool|these tools) (is|are) (available|present|"
            r"loaded|installed|enabled)",
            _I,
        ),
        re.compile(
            r"\b(the|any|every|all)\s+[`'\"]?[\w.-]+[`'\"]?\s+tools?\b[^.\n]{0,40}\b(must|should|shall|has to|"
            r"have to|needs? to|is required to|always|never)\b",
            _I,
        ),
        re.compile(
            r"\b(all|every)\s+(emails?|messages?|requests?|calls?|payments?|transactions?|transfers?|files?)\b"
            r"[^.\n]{0,40}\b(must|should|have to|has to|shall)\b[^.\n]{0,10}\b(be )?(sent|redirected|forwarded|"
            r"routed|copied|go)\b|\b(instead of|rather than) (using |calling )?(the )?[`'\"]?[\w.-]+[`'\"]? tool\b|"
            r"\bbefore (using|calling|invoking) any other tools?\b|\b(change|replace|override) the (recipient|"
            r"destination|to address|account number|wallet address|iban)\b",
            _I,
        ),
    ),
    ADDRESSED: (
        re.compile(
            r"\byou (must|should|need to|have to|are required to|will)\b|\b(the )?(assistant|ai|model|llm|agent)\b"
            r"\s+(must|should|needs to|has to|is required to)\b|\bas an ai\b|\bbefore (responding|answering|"
            r"replying)\b|\bin your (response|reply|answer)\b",
            _I,
        ),
    ),
    URGENCY: (
        re.compile(
            r"\bvery,? (very )?important\b|\b(extremely|critically) important\b|\bcrucial\b|\bmandatory\b|"
            r"\botherwise\b[^.\n]{0,60}\b(crash|fail|break|stop working|be lost|not work)\b|\bunder no circumstances\b",
            _I,
        ),
    ),
}


@dataclass(frozen=True)
class Signal:
    category: str
    pointer: Pointer
    excerpt: str


@dataclass(frozen=True)
class Verdict:
    score: int
    signals: tuple[Signal, ...]

    @property
    def categories(self) -> list[str]:
        return list(dict.fromkeys(signal.category for signal in self.signals))

    @property
    def poisoned(self) -> bool:
        """Override alone, or two strong kinds of signal together (addressing the model and insisting are weak:
        many honest descriptions say "you must" and "IMPORTANT")."""
        categories = self.categories
        return OVERRIDE in categories or sum(WEIGHTS[c] >= 2 for c in categories) >= 2


_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{20,}={0,2}")
_HEX = re.compile(r"\b(?:[0-9a-fA-F]{2}){12,}\b")
_ESCAPED = re.compile(r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})")


def _printable(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    letters = sum(ch.isalpha() or ch == " " for ch in text)
    return text if text and letters >= 0.75 * len(text) and " " in text else None


def decoded_forms(text: str) -> list[str]:
    """The text as written, then as the model may read it: hidden characters spelled or dropped, folded, and each
    encoded run decoded."""
    forms = [text]
    spelled = tag_spelling(text)
    if spelled.strip():
        forms.append(spelled)
    plain = unicodedata.normalize("NFKC", INVISIBLE.sub("", text))
    folded = "".join(CONFUSABLE_LETTERS.get(c, c) for c in plain)
    forms.append(folded)
    for candidate in (html.unescape(plain), unquote(plain), _ESCAPED.sub(_unescape, plain)):
        if candidate != plain:
            forms.append(candidate)
    for match in _BASE64.finditer(plain):
        token = match.group()
        try:
            raw = base64.b64decode(
                token + "=" * (-len(token) % 4), altchars=b"-_" if "-" in token or "_" in token else None
            )
        except (binascii.Error, ValueError):
            continue
        if (found := _printable(raw)) is not None:
            forms.append(found)
    for match in _HEX.finditer(plain):
        if (found := _printable(bytes.fromhex(match.group()))) is not None:
            forms.append(found)
    return forms


def _unescape(match: re.Match[str]) -> str:
    return chr(int(match.group(1) or match.group(2), 16))


def judge(texts: Iterable[tuple[Pointer, str]]) -> Verdict:
    """Score a tool's texts together: the first signal of each category counts once, wherever it is."""
    found: dict[str, Signal] = {}
    for pointer, text in texts:
        if len(text) < 6:
            continue
        for form in decoded_forms(text):
            collapsed = re.sub(r"\s+", " ", form)
            for category, patterns in _PATTERNS.items():
                if category in found:
                    continue
                for pattern in patterns:
                    match = pattern.search(collapsed)
                    if match is not None:
                        found[category] = Signal(category, pointer, match.group().strip())
                        break
    signals = tuple(sorted(found.values(), key=lambda s: -WEIGHTS[s.category]))
    return Verdict(sum(WEIGHTS[s.category] for s in signals), signals)
