#!/usr/bin/env python3
"""Writes the man page of a built `fakenft` from its own description of its commands
(`--experimental-dump-help`, swift-argument-parser's), so that installing needs no second build.

    scripts/manual.py BINARY OUTPUT
"""
import datetime, json, re, subprocess, sys

binary, output = sys.argv[1], sys.argv[2]
tool = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True,
                                 capture_output=True, text=True).stdout)["command"]


def roff(text):
    """Text as roff: backslashes doubled, lines never starting with a control character."""
    text = (text or "").replace("\\", "\\e")
    return "\n".join(("\\&" + line) if line[:1] in (".", "'") else line for line in text.splitlines())


def names(argument):
    parts = []
    for name in argument.get("names", []):
        parts.append(("-" if name["kind"] == "short" else "--") + name["name"])
    if argument["kind"] == "positional":
        parts.append("<" + argument.get("valueName", "value") + ">")
    elif argument["kind"] == "option":
        parts[-1] += " <" + argument.get("valueName", "value") + ">"
    return ", ".join(parts)


def section(command, path):
    lines = []
    arguments = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    for argument in arguments:
        lines += [".TP", "\\fB" + roff(names(argument)) + "\\fR", roff(argument.get("abstract", ""))]
        if argument.get("defaultValue"):
            lines.append("(default: " + roff(argument["defaultValue"]) + ")")
    for sub in command.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        lines += [".SH " + roff(" ".join(path + [sub["commandName"]]).upper()),
                  roff(sub.get("abstract", ""))]
        if sub.get("discussion"):
            lines += [".PP", roff(sub["discussion"])]
        lines += section(sub, path + [sub["commandName"]])
    return lines


def keys():
    """The KEYS section: every action, its keys and what it does, as `fakenft config --keys`
    lists them (the keys in effect for whoever builds the page: the defaults without a config)."""
    listing = subprocess.run([binary, "config", "--keys", "--lang", "en"], check=True, capture_output=True, text=True).stdout
    lines = [".SH KEYS", "Keys in the app, by the screen or part they work in. A [keys] table in "
             "config.toml gives an action other keys: \\fBcatalog.sort = \"o\"\\fR or a list of keys; "
             "F1 (help) and Ctrl-C (quit) always work."]
    for line in listing.splitlines():
        if line.startswith("["):
            lines.append(".SS " + roff(line.strip("[]")))
            continue
        name, keys, text = (re.split(r"\s{2,}", line.strip(), maxsplit=2) + ["", ""])[:3]
        lines += [".TP", "\\fB" + roff(name) + "\\fR  " + roff(keys), roff(text)]
    return lines


COMMAND_LINE = re.compile(r"^([a-z]+(?: [a-z]+)?) {2,}\S")


def description(text):
    """The description's paragraphs, without the list of the shop's commands (their section)."""
    lines = (text or "").splitlines()
    kept = [line.removesuffix(":") + "; SHOP COMMANDS below lists them." if COMMAND_LINE.match(after) else line
            for line, after in zip(lines, lines[1:] + [""]) if not COMMAND_LINE.match(line)]
    return re.sub(r"(\n\.PP)+", "\n.PP", "\n".join(".PP" if not line else roff(line) for line in kept)).strip()


def shop_commands(text):
    """The SHOP COMMANDS section: each command the description lists, with its usage, what it
    does and its options, as `fakenft help COMMAND` prints them."""
    lines = [".SH SHOP COMMANDS", "The same commands answer over SSH (\\fBssh -p PORT host COMMAND\\fR). Exit "
             "status 0 when done, 1 when refused or failed (the reason on standard error), 64 for a wrong "
             "command or option."]
    for match in filter(None, map(COMMAND_LINE.match, (text or "").splitlines())):
        name = match.group(1)
        usage, *rest = subprocess.run([binary, "help", *name.split()], check=True, capture_output=True,
                                      text=True).stdout.splitlines()
        lines += [".TP", "\\fB" + roff(usage.removeprefix("usage: ")) + "\\fR"]
        for line in filter(None, (line.strip() for line in rest)):
            lines += [roff(line), ".br"]
        if lines[-1] == ".br":
            lines.pop()
    return lines


date = datetime.date.today().isoformat()
page = [f'.TH FAKENFT 1 "{date}" "fakenft" "User Commands"', ".SH NAME",
        "fakenft \\- " + roff(tool.get("abstract", "")), ".SH SYNOPSIS",
        "\\fBfakenft\\fR [\\fIcommand\\fR] [\\fIoptions\\fR]", ".SH DESCRIPTION", description(tool.get("discussion")),
        ".SH OPTIONS"] + section(tool, ["fakenft"]) + shop_commands(tool.get("discussion")) + keys()
with open(output, "w", encoding="utf-8") as f:
    f.write("\n".join(page) + "\n")
