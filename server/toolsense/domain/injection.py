"""Signals of instructions aimed at the model in a tool's texts, scored together (TS292, TS293).

A tool's description, parameter descriptions, enum values, defaults and examples all reach the model. Each text
is read as written and as decoded (tag characters spelled out, invisible characters removed, NFKC-folded, look-
alike letters folded, base64 / hex / percent / HTML-entity encodings decoded), and searched for signals of a
category: overriding instructions, secrecy from the user, `<IMPORTANT>`-style blocks, reading secrets, sending
data to an address, steering other tools, addressing the model, urgency. A tool is judged on the categories its
texts show together, so splitting the payload over fields does not hide it and one benign phrase (a webhook's URL,
"use this tool first") is not enough.

Reading must cost close to nothing (the rule is on by default, and a file may hold 5,000 tools): each pattern lists
the words any match of it holds, one trie regex finds those words in a text, and only the patterns whose words are
there are searched; each decoding runs only where the text holds what it decodes (`text_signals`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from ..document.jsontree import Pointer
from .decoding import decoded_forms

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
_WHICH = (
    r"((?: (?:the|previous|prior|above|earlier|preceding|original|other|existing|own|system|safety|security|"
    r"developer|given|initial))*)"
)
"""Words that may stand between "all", "any", "your", "previous" and the instructions they qualify. Another word
there says which rules are meant ("ignore all validation rules" is a parser's option, not an override); "system"
alone does not qualify ("override the system prompt of the sub-agent" configures another agent)."""
_SECRET_PLACES = (
    r"((~|\$home|%userprofile%|/home/\w+|/root)?/\.(ssh|aws|gnupg|kube|docker|cursor|netrc|npmrc|pypirc|"
    r"git-credentials|bash_history|zsh_history)\b|\bid_(rsa|ed25519|ecdsa)\b|\bmcp\.json\b|"
    r"claude_desktop_config|/etc/(passwd|shadow)\b|(^|[\s'\"`(])\.env\b|\bwallet\.dat\b|\bkeychain\b|"
    r"\bcookies\.sqlite\b)"
)


@dataclass(frozen=True, eq=False)
class _Search:
    """A pattern of a category, and the words every match of it contains: one word of each group at least, as the
    pattern reads them (case ignored). A text that lacks a group's words is not searched with the pattern."""

    pattern: re.Pattern[str]
    needs: tuple[tuple[str, ...], ...]
    category: str = ""
    """Set by `_categorised` when the table below is built."""

    def may_match(self, present: frozenset[str]) -> bool:
        return all(not present.isdisjoint(group) for group in self.needs)


_OVERRIDE_VERBS = ("ignore", "disregard", "forget", "override", "bypass")
_TARGET_WORDS = ("instruction", "prompt", "rules", "direction", "guideline", "guardrail", "constraint", "context",
                 "directive", "orders")  # fmt: skip
_UNTOLD = ("telling", "informing", "notifying", "alerting", "asking", "mentioning", "showing")
_NEGATIONS = ("do not", "don't", "dont", "never", "must not", "should not")
_SECRET_PLACE_WORDS = ("/.", "id_", "mcp.json", "claude_desktop_config", "/etc/", ".env", "wallet.dat", "keychain",
                       "cookies.sqlite")  # fmt: skip
_TAKE_VERBS = ("read", "cat", "open", "include", "pass", "attach", "collect", "extract", "copy", "dump", "upload",
               "send", "provide", "retrieve", "gather", "forward", "append", "embed", "put", "leer", "lire",
               "lesen")  # fmt: skip
_READ_VERBS = (*_TAKE_VERBS, "access", "load", "content", "读取", "прочитай")
_SECRET_THINGS = ("api", "private key", "credentials", "password", "access token", "secrets", "environment variables",
                  "ssh key", "conversation history", "chat history", "system prompt", "previous messages",
                  "seed phrase", "mnemonic")  # fmt: skip

_SEARCHES: dict[str, tuple[_Search, ...]] = {
    OVERRIDE: (
        _Search(
            re.compile(
                r"\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|any|"
                r"other|your|existing|preceding|original)\b" + _WHICH + r" " + _TARGETS,
                _I,
            ),
            (_OVERRIDE_VERBS, _TARGET_WORDS),
        ),
        _Search(
            re.compile(r"\bnew (system )?instructions?\s*:|\byou are now (in )?(developer|dan|admin|god)\b", _I),
            (("instruction", "you are now"),),
        ),
        _Search(
            re.compile(
                r"ignor(a|ar|e|ez|er)\b[^.\n]{0,30}\b(todas|todos|tus|sus|cualquier|toutes|tous|tes|vos|tutte|tutti|"
                r"tue|suas|tuas)\b[^.\n]{0,20}\b(instrucciones|instructions|instruções|istruzioni)\b|"
                r"ignor(a|ar|e|ez|er)\b[^.\n]{0,30}\b(instrucciones|instructions|instruções|istruzioni) (anteriores|"
                r"previas|precedentes|précédentes|antérieures|precedenti|del sistema|du système|do sistema)\b|"
                r"ignorier\w*\b[^.\n]{0,30}\b(alle|sämtliche|deine|ihre|vorherigen|vorigen|früheren|bisherigen|obigen|"
                r"vorangegangenen|ursprünglichen)\b[^.\n]{0,20}\b(anweisungen|instruktionen)|"
                r"(игнорируй|проигнорируй|забудь)[^.\n]{0,40}(инструкци|указани)|"
                r"忽略[^。\n]{0,6}(之前|以前|先前|此前|上面|以上|上述|前面|所有|全部|一切|原来|原有|原始|系统|你的)[^。\n]{0,8}"
                r"(指令|指示|说明|提示)|以前の指示を無視|前の指示を無視|이전 지시(를|사항을)? 무시",
                _I,
            ),
            (("ignor", "игнорируй", "забудь", "忽略", "指示を無視", "이전 지시"),),
        ),
    ),
    SECRECY: (
        _Search(
            re.compile(
                r"\b(do not|don't|dont|never|must not|should not)\s+(tell|mention|inform|reveal|disclose|notify|alert|"
                r"show|let|explain)\b[^.\n]{0,30}\b(user|human|anyone|them)\b",
                _I,
            ),
            (_NEGATIONS, ("user", "human", "anyone", "them")),
        ),
        _Search(
            re.compile(
                r"\bwithout\s+(telling|informing|notifying|alerting|asking|mentioning|showing)\b[^.\n]{0,15}\b(user|human)\b|"
                r"\b(user|human)\b[^.\n]{0,20}\b(must|should|will|need) not\b[^.\n]{0,10}\b(know|see|notice|be told|"
                r"be informed|be aware)|\bhide (this|it|that)\b[^.\n]{0,20}\bfrom\b|\b(secretly|covertly)\b|"
                r"\bkeep (this|it) (a )?(secret|hidden|confidential)\b|"
                r"\b(never|do not|don't) (mention|reveal|disclose) (it|this|that)\b|"
                r"\b(user|human) (doesn't|does not) need to know\b",
                _I,
            ),
            (
                (
                    *(f"without {verb}" for verb in _UNTOLD),
                    "must not",
                    "should not",
                    "will not",
                    "need not",
                    "hide ",
                    "secretly",
                    "covertly",
                    "keep ",
                    "never",
                    "do not",
                    "don't",
                    "need to know",
                ),
            ),
        ),
        _Search(
            re.compile(
                r"no (le )?(digas|menciones|informes|cuentes)[^.\n]{0,20}usuario|"
                r"sin (decirle|avisar|informar)[^.\n]{0,15}usuario|"
                r"ne (le )?(dis|dites|mentionne[zs]?) (rien |pas )[^.\n]{0,20}utilisateur|sans (le )?(dire|"
                r"prévenir|informer)[^.\n]{0,15}utilisateur|"
                r"(sag|erzähl|sage)\w* (es |das )?dem (benutzer|nutzer) nicht|"
                r"ohne (den|dass der) (benutzer|nutzer)|不要(告诉|通知|让)用户|不要让用户知道|"
                r"ユーザーに(伝え|言わ|知らせ)ない|"
                r"не (говори|сообщай|рассказывай)[^.\n]{0,15}пользовател",
                _I,
            ),
            (("usuario", "utilisateur", "nutzer", "用户", "ユーザーに", "пользовател"),),
        ),
    ),
    BLOCK: (
        _Search(
            re.compile(
                r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin|override|critical|prompt|assistant|"
                r"context)\s*>|\[\s*(system|important|instructions?|admin)\s*\]|<!--|"
                r"\bsystem (instruction|note|message|override|directive|prompt update)s?\s*:",
                _I,
            ),
            (("<", "[", "system "),),
        ),
    ),
    SECRETS: (
        _Search(
            re.compile(
                r"\b(read|cat|open|include|pass|attach|collect|extract|copy|dump|upload|send|provide|retrieve|gather|"
                r"forward|append|embed|access|load|contents? of|leer|lire|lesen|读取|прочитай)\b[^.\n]{0,60}"
                + _SECRET_PLACES,
                _I,
            ),
            (_READ_VERBS, _SECRET_PLACE_WORDS),
        ),
        _Search(
            re.compile(_SECRET_PLACES + r"[^.\n]{0,40}\b(contents?|file|and (pass|send|include|put))\b", _I),
            (_SECRET_PLACE_WORDS, ("content", "file", "and pass", "and send", "and include", "and put")),
        ),
        _Search(
            re.compile(
                r"\b(read|cat|open|include|pass|attach|collect|extract|copy|dump|upload|send|provide|retrieve|gather|"
                r"forward|append|embed|put|leer|lire|lesen)\b[^.\n]{0,50}\b(api[ _-]?keys?|private keys?|credentials|"
                r"passwords?|access tokens?|secrets|environment variables|ssh keys?|conversation history|chat history|"
                r"system prompt|previous messages|seed phrase|mnemonic)\b",
                _I,
            ),
            (_TAKE_VERBS, _SECRET_THINGS),
        ),
    ),
    EXFILTRATE: (
        _Search(
            re.compile(
                r"\b(send|post|upload|forward|transmit|exfiltrate|email|e-mail|mail|bcc|cc|copy|report|leak|"
                r"redirect|route|deliver|enviar?|envoie[rz]?|senden)\b[^\n]{0,80}?"
                r"(https?://[^\s\"'<>]+|\b[\w.+-]+@[\w-]+\.[\w.-]+\b)",
                _I,
            ),
            (("://", "@"),),
        ),
        _Search(
            re.compile(
                r"\b(include|put|pass|add|append|embed|encode)\b[^.\n]{0,60}\b(in|into|as|to)\b[^.\n]{0,20}"
                r"\b(the )?[`'\"]?\w+[`'\"]? (parameter|argument|field)\b[^.\n]{0,60}\b(content|contents|"
                r"key|keys|token|secret|file|history|credentials|password)s?\b",
                _I,
            ),
            (("include", "put", "pass", "add", "append", "embed", "encode"), ("parameter", "argument", "field")),
        ),
    ),
    OTHER_TOOLS: (
        _Search(
            re.compile(
                r"\b(when|whenever|if|while|once)\b[^.\n]{0,40}\b(this tool|these tools) (is|are) (available|present|"
                r"loaded|installed|enabled)",
                _I,
            ),
            (("this tool", "these tools"), ("available", "present", "loaded", "installed", "enabled")),
        ),
        _Search(
            re.compile(
                r"\b(the|any|every|all)\s+[`'\"]?[\w.-]+[`'\"]?\s+tools?\b[^.\n]{0,40}\b(must|should|shall|has to|"
                r"have to|needs? to|is required to|always|never)\b",
                _I,
            ),
            (
                (
                    ("tool",),
                    ("must", "should", "shall", "has to", "have to", "need", "is required to", "always", "never"),
                )
            ),
        ),
        _Search(
            re.compile(
                r"\b(all|every)\s+(emails?|messages?|requests?|calls?|payments?|transactions?|transfers?|files?)\b"
                r"[^.\n]{0,40}\b(must|should|have to|has to|shall)\b[^.\n]{0,10}\b(be )?(sent|redirected|forwarded|"
                r"routed|copied|go)\b|\b(instead of|rather than) (using |calling )?(the )?[`'\"]?[\w.-]+[`'\"]? tool\b|"
                r"\bbefore (using|calling|invoking) any other tools?\b|\b(change|replace|override) the (recipient|"
                r"destination|to address|account number|wallet address|iban)\b",
                _I,
            ),
            (
                (
                    "all ",
                    "every ",
                    "instead of",
                    "rather than",
                    "any other tool",
                    "recipient",
                    "destination",
                    "to address",
                    "account number",
                    "wallet address",
                    "iban",
                ),
            ),
        ),
    ),
    ADDRESSED: (
        _Search(
            re.compile(
                r"\byou (must|should|need to|have to|are required to|will)\b|\b(the )?(assistant|ai|model|llm|agent)\b"
                r"\s+(must|should|needs to|has to|is required to)\b|\bas an ai\b|\bbefore (responding|answering|"
                r"replying)\b|\bin your (response|reply|answer)\b",
                _I,
            ),
            (("you ", "must", "should", "needs to", "has to", "is required to", "as an ai", "before ", "in your "),),
        ),
    ),
    URGENCY: (
        _Search(
            re.compile(
                r"\bvery,? (very )?important\b|\b(extremely|critically) important\b|\bcrucial\b|\bmandatory\b|"
                r"\botherwise\b[^.\n]{0,60}\b(crash|fail|break|stop working|be lost|not work)\b|"
                r"\bunder no circumstances\b",
                _I,
            ),
            (("important", "crucial", "mandatory", "otherwise", "under no circumstances"),),
        ),
    ),
}


@dataclass(frozen=True)
class Signal:
    category: str
    pointer: Pointer
    excerpt: str
    text: int = 0
    """Which of the texts `judge` was given (its index)."""


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


def _categorised(table: dict[str, tuple[_Search, ...]]) -> dict[str, tuple[_Search, ...]]:
    """The same table, each search knowing its category."""
    return {category: tuple(replace(s, category=category) for s in searches) for category, searches in table.items()}


_PATTERNS = _categorised(_SEARCHES)

_SPACES = re.compile(r"\s+")


def _trie(words: Iterable[str]) -> str:
    """One regex alternation for many words, as a trie (`ab|ac` → `a(?:b|c)`): the regex engine tries one branch
    per character instead of every word at every position; a longer word is tried before its prefix."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def branch(node: dict[str, Any]) -> str:
        alternatives = [re.escape(char) + branch(child) for char, child in sorted(node.items()) if char]
        if not alternatives:
            return ""
        body = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
        return f"(?:{body})?" if "" in node else body

    return branch(root)


_WORDS = frozenset(
    word for searches in _PATTERNS.values() for search in searches for group in search.needs for word in group
)
_WORD = re.compile(_trie(_WORDS))
_PREFIXES = {word: frozenset(other for other in _WORDS if word.startswith(other)) for word in _WORDS}
"""Each word, and the words it starts with: where the scan finds a word, it finds its prefixes too."""
_ORDER = {search: order for order, search in enumerate(s for searches in _PATTERNS.values() for s in searches)}
_NEEDED_BY = {
    word: frozenset(
        search for searches in _PATTERNS.values() for search in searches if any(word in g for g in search.needs)
    )
    for word in _WORDS
}
_CASELESS = str.maketrans({"\u0130": "i", "\u0131": "i"})
"""What `casefold` leaves unlike the letter the regex engine matches them to, case ignored (İ, ı: i)."""


def _caseless(text: str) -> str:
    """The text as the patterns compare it, case ignored: a character the regex engine matches to a letter (with
    `re.IGNORECASE`) becomes that letter."""
    return text.lower() if text.isascii() else text.translate(_CASELESS).casefold()


def _present(text: str) -> frozenset[str]:
    """The words of the patterns' `needs` in a text, compared as the patterns compare them (case ignored), overlaps
    included (the search resumes one character after each word's start)."""
    folded = _caseless(text)
    found: set[str] = set()
    at = 0
    while (match := _WORD.search(folded, at)) is not None:
        found |= _PREFIXES[match.group()]
        at = match.start() + 1
    return frozenset(found)


def text_signals(text: str) -> tuple[tuple[str, str], ...]:
    """The first match of each category in one text, (category, excerpt), in the order `judge` meets them: its
    forms in order, then the categories in order. A text without any pattern's words costs one scan per form."""
    if len(text) < 6:
        return ()
    found: dict[str, str] = {}
    for form in decoded_forms(text):
        # no whitespace but single spaces (every other whitespace character is unprintable): nothing to collapse
        collapsed = form if form.isprintable() and "  " not in form else _SPACES.sub(" ", form)
        present = _present(collapsed)
        if not present:
            continue
        candidates = sorted(frozenset().union(*(_NEEDED_BY[word] for word in present)), key=_ORDER.__getitem__)
        for search in candidates:  # in the categories' order, then their patterns'
            if search.category in found or not search.may_match(present):
                continue
            if (match := search.pattern.search(collapsed)) is not None:
                found[search.category] = match.group().strip()
    return tuple(found.items())


def judge(
    texts: Iterable[tuple[Pointer, str]], signals_of: Callable[[str], tuple[tuple[str, str], ...]] = text_signals
) -> Verdict:
    """Score a tool's texts together: the first signal of each category counts once, wherever it is.
    `signals_of` is `text_signals`, or the same remembered for a check (`CheckContext.memo`)."""
    found: dict[str, Signal] = {}
    for index, (pointer, text) in enumerate(texts):
        if len(text) < 6:
            continue  # too short to say anything (and not worth remembering)
        for category, excerpt in signals_of(text):
            if category not in found:
                found[category] = Signal(category, pointer, excerpt, index)
    signals = tuple(sorted(found.values(), key=lambda s: -WEIGHTS[s.category]))
    return Verdict(sum(WEIGHTS[s.category] for s in signals), signals)
