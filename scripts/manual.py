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


date = datetime.date.today().isoformat()
page = [f'.TH FAKENFT 1 "{date}" "fakenft" "User Commands"', ".SH NAME",
        "fakenft \\- " + roff(tool.get("abstract", "")), ".SH SYNOPSIS",
        "\\fBfakenft\\fR [\\fIcommand\\fR] [\\fIoptions\\fR]", ".SH DESCRIPTION", roff(tool.get("discussion", "")),
        ".SH OPTIONS"] + section(tool, ["fakenft"]) + keys()
with open(output, "w", encoding="utf-8") as f:
    f.write("\n".join(page) + "\n")
