"""sh_commands.py FILE...: the external commands the shell FILEs call, one
"COMMAND FILE:LINE" line each (its first call), for t_suite.sh.

A scanner of the sh the tests are written in, not of all sh: quotes,
command substitutions (inside double quotes too), comments, here-documents
(skipped: their bodies are another language's), case patterns, for lists,
functions (defined in any FILE: not external), redirections, and the
commands that run another (env, exec, nice, xargs, strace, setpriv). A
command named by a variable ("$bindir/psql", "$PY") is not seen, nor one
inside a string another program runs (tmux's command line)."""
import re
import sys

KEYWORDS = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}"}
BUILTINS = {"cd", "echo", "printf", "test", "[", "true", "false", "exit", "return", "set",
            "shift", "trap", "wait", "kill", "read", "eval", "exec", "export", "unset",
            "local", "command", "type", "break", "continue", ":", ".", "umask", "getopts",
            "hash", "times", "ulimit", "pwd", "alias"}
WRAPPERS = {"env", "nice", "xargs", "strace", "setpriv", "timeout", "exec"}
ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*=")


class Scanner:
    def __init__(self, text, line=1):
        self.s, self.i, self.line = text, 0, line
        self.toks = []        # (kind, text, line): kind "w" word, "s" separator, "r" redirection
        self.heredocs = []    # words whose here-documents start after this line

    def peek(self, n=0):
        return self.s[self.i + n] if self.i + n < len(self.s) else ""

    def sub(self, close):
        """Scan a nested $( ... ) up to its close; its tokens go into ours."""
        inner = Scanner(self.s, self.line)
        inner.i = self.i
        inner.run(close)
        self.toks.append(("s", "$(", self.line))
        self.toks.extend(inner.toks)
        self.toks.append(("s", ")", inner.line))
        self.i, self.line = inner.i, inner.line

    def skip_heredocs(self):
        for word in self.heredocs:
            while self.i < len(self.s):
                end = self.s.find("\n", self.i)
                end = len(self.s) if end < 0 else end
                body = self.s[self.i:end]
                self.i, self.line = end + 1, self.line + 1
                if body.strip("\t") == word:
                    break
        self.heredocs = []

    def run(self, close=None):
        word, depth = None, 0
        def flush():
            nonlocal word
            if word is not None:
                self.toks.append(("w", word, self.line))
                word = None
        while self.i < len(self.s):
            c = self.peek()
            if close and c == ")" and depth == 0 and word is None or close and c == ")" and depth == 0:
                flush()
                self.i += 1
                return
            if c == "\\":
                if self.peek(1) == "\n":
                    self.line += 1
                else:
                    word = (word or "") + self.peek(1)
                self.i += 2
            elif c == "'":
                j = self.s.find("'", self.i + 1)
                j = len(self.s) if j < 0 else j
                self.line += self.s.count("\n", self.i, j)
                word = (word or "") + "'" + self.s[self.i + 1:j] + "'"
                self.i = j + 1
            elif c == '"':
                self.i += 1
                word = (word or "") + '"'
                while self.i < len(self.s) and self.peek() != '"':
                    if self.peek() == "\\":
                        word += self.peek(1)
                        self.i += 2
                    elif self.s.startswith("$((", self.i):
                        self.arith()
                    elif self.s.startswith("$(", self.i):
                        self.i += 2
                        self.sub(")")
                    elif self.peek() == "`":
                        self.backquote()
                    else:
                        if self.peek() == "\n":
                            self.line += 1
                        word += self.peek()
                        self.i += 1
                self.i += 1
            elif self.s.startswith("$((", self.i):
                word = (word or "") + "$(())"
                self.arith()
            elif self.s.startswith("$(", self.i):
                flush()
                self.i += 2
                self.sub(")")
            elif self.s.startswith("${", self.i):
                j, d = self.i + 2, 1
                while j < len(self.s) and d:
                    d += {"{": 1, "}": -1}.get(self.s[j], 0)
                    j += 1
                word = (word or "") + self.s[self.i:j]
                self.i = j
            elif c == "`":
                flush()
                self.backquote()
            elif c == "#" and word is None:
                j = self.s.find("\n", self.i)
                self.i = len(self.s) if j < 0 else j
            elif c in " \t":
                flush()
                self.i += 1
            elif c == "\n":
                flush()
                self.toks.append(("s", "\n", self.line))
                self.line += 1
                self.i += 1
                self.skip_heredocs()
            elif c in ";&|()":
                flush()
                op = c
                if self.peek(1) == c and c in ";&|":
                    op += c
                self.toks.append(("s", op, self.line))
                self.i += len(op)
            elif c in "<>":
                m = re.match(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z_0-9]*)\1|[<>]&?-?|>>|<>", self.s[self.i:])
                if word is not None and re.fullmatch(r"\d+", word):
                    word = None   # 2>: the fd number
                flush()
                if m.group(2):
                    self.heredocs.append(m.group(2))
                    self.i += m.end()
                    continue
                self.i += m.end()
                if self.s[self.i - 1] == "&" or self.peek() == "&":
                    self.i += 1 if self.peek() == "&" else 0
                    while self.peek().isdigit() or self.peek() == "-":
                        self.i += 1
                    continue
                self.toks.append(("r", self.s[self.i - m.end():self.i], self.line))
            else:
                word = (word or "") + c
                self.i += 1
        flush()

    def arith(self):
        j, d = self.i + 3, 2
        while j < len(self.s) and d:
            d += {"(": 1, ")": -1}.get(self.s[j], 0)
            j += 1
        self.i = j

    def backquote(self):
        j = self.s.find("`", self.i + 1)
        inner = Scanner(self.s[self.i + 1:j], self.line)
        inner.run()
        self.toks.append(("s", "$(", self.line))
        self.toks.extend(inner.toks)
        self.toks.append(("s", ")", self.line))
        self.i = j + 1


def commands(toks, funcs):
    """(name, line) of every command word of the token stream."""
    out, start, mode, i = [], True, None, 0
    while i < len(toks):
        kind, t, line = toks[i]
        if kind == "r":
            i += 2      # and its target
            continue
        if kind == "s":
            if mode == "pattern" and t == ")":
                mode, start = None, True
            elif mode == "pattern":
                pass
            elif t == ";;":
                mode = "pattern"
            else:
                start = True
            i += 1
            continue
        if mode == "for":          # for NAME in WORDS; do
            if t == "do":
                mode, start = None, True
            i += 1
            continue
        if mode == "case":         # case WORD in
            if t == "in":
                mode = "pattern"
            i += 1
            continue
        if mode == "pattern":
            if t == "esac":
                mode, start = None, False
            i += 1
            continue
        if not start:
            i += 1
            continue
        if t == "for":
            mode = "for"
        elif t == "case":
            mode = "case"
        elif t in KEYWORDS or ASSIGN.match(t):
            pass
        elif i + 2 < len(toks) and toks[i + 1][1] == "(" and toks[i + 2][1] == ")":
            funcs.add(t)        # NAME() { ...
            i += 3
            continue
        else:
            name = t.rsplit("/", 1)[-1] if t.startswith("/") else t
            if name in WRAPPERS:
                out.append((name, line))
                i += 1
                while i < len(toks) and toks[i][0] == "w" and (toks[i][1].startswith("-") or ASSIGN.match(toks[i][1])):
                    if name in ("env", "strace", "timeout") and toks[i][1] in ("-u", "-o", "-e", "-s", "-k"):
                        i += 1
                    i += 1
                continue
            out.append((name, line))
            start = False
        i += 1
    return out


def main():
    funcs, calls = set(), []
    for path in sys.argv[1:]:
        sc = Scanner(open(path).read())
        sc.run()
        for name, line in commands(sc.toks, funcs):
            calls.append((name, "%s:%d" % (path.rsplit("/", 1)[-1], line)))
    seen = {}
    for name, where in calls:
        if name in funcs or name in BUILTINS or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.+-]*", name):
            continue
        seen.setdefault(name, where)
    for name in sorted(seen):
        print(name, seen[name])


main()
