"""`referee completion bash|zsh|fish`: a static completion script, written from the command
tree (`referee.cli.tree`) once, so that a Tab never starts Python. The names of commands and
options are in the script; the values that depend on the disk are found by the shell itself:
folders and `*.rgn` files, league folders (those holding league.toml), and the sides of the
game a record's `[Game` tag (or the GAME argument) names.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.cli.tree import Command, game_sides


class _Tables:
    """What every script holds, keyed by command path ("referee league tick")."""

    def __init__(self, root: Command) -> None:
        self.commands: dict[str, list[tuple[str, str]]] = {}
        self.options: dict[str, list[str]] = {}
        self.valued: dict[str, list[str]] = {}
        self.values: dict[str, str] = {}
        self.arguments: dict[str, list[str]] = {}
        self.walked = root.walk()
        for command in self.walked:
            path = command.name
            if command.subcommands:
                self.commands[path] = [(sub.path[-1], sub.short_help) for sub in command.subcommands]
            self.options[path] = [name for option in command.options for name in option.names]
            self.valued[path] = [name for option in command.options if option.takes_value for name in option.names]
            for option in command.options:
                if option.takes_value:
                    for name in option.names:
                        self.values[f"{path} {name}"] = _kind(option.kind, option.words)
            self.arguments[path] = [
                _kind(argument.kind, argument.words) + ("..." if argument.variadic else "")
                for argument in command.arguments
            ]
        self.sides = game_sides()


def _kind(kind: str, words: Iterable[str]) -> str:
    return f"choice:{','.join(words)}" if kind == "choice" else (kind or "none")


def _all_sides(tables: _Tables) -> str:
    return " ".join(dict.fromkeys(side for sides in tables.sides.values() for side in sides))


def _quote(text: str) -> str:
    """A word in single quotes for bash, zsh and fish alike."""
    return "'" + text.replace("\\", "\\\\").replace("'", "'\\''") + "'"


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _assoc(name: str, table: dict[str, str]) -> str:
    lines = [f"    [{_quote(key)}]={_quote(value)}" for key, value in table.items()]
    return f"{name}=(\n" + "\n".join(lines) + "\n)"


def _zsh_assoc(name: str, table: dict[str, str]) -> str:
    lines = [f"    {_quote(key)} {_quote(value)}" for key, value in table.items()]
    return f"{name}=(\n" + "\n".join(lines) + "\n)"


def _common(tables: _Tables) -> dict[str, dict[str, str]]:
    return {
        "_referee_commands": {key: " ".join(name for name, _ in value) for key, value in tables.commands.items()},
        "_referee_options": {key: " ".join(value) for key, value in tables.options.items()},
        "_referee_valued": {key: " ".join(value) for key, value in tables.valued.items() if value},
        "_referee_values": tables.values,
        "_referee_arguments": {key: " ".join(value) for key, value in tables.arguments.items() if value},
        "_referee_sides": {game: " ".join(sides) for game, sides in tables.sides.items()},
    }


HEADER = """\
# {shell} completion for referee, written by `referee completion {shell}` from the
# command line's own tree: a Tab never runs referee (folders, *.rgn files, league folders
# and the sides of a record's game are found by the shell). Load it with
#     {load}
"""

BASH_BODY = r"""
# The game of $1 (a game's name, or the [Game tag in the first 100 lines of a readable file)
# into _referee_game.
_referee_game_of() {
    local line n=0 word="${1,,}"
    _referee_game=""
    if [[ -n $word && -n ${_referee_sides[$word]-} ]]; then _referee_game=$word; return; fi
    [[ -f $1 && -r $1 ]] || return 0
    while ((n++ < 100)) && IFS= read -r line; do
        if [[ $line =~ ^\[Game[[:space:]]+\"([^\"]*)\" ]]; then
            _referee_game=${BASH_REMATCH[1],,}
            return
        fi
    done <"$1"
}

# COMPREPLY for a value of kind $1 (see referee/cli/tree.py) starting with $2.
_referee_value() {
    local kind=$1 cur=$2 d side
    local -a words
    case $kind in
    dir)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        ;;
    file)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        ;;
    rgn)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X '!*.[rR][gG][nN]' -- "$cur")
        ;;
    league)
        compopt -o filenames 2>/dev/null
        while IFS= read -r d; do
            [[ -f $d/league.toml ]] && COMPREPLY+=("$d")
        done < <(compgen -d -- "$cur")
        ((${#COMPREPLY[@]})) || mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        ;;
    game)
        mapfile -t COMPREPLY < <(compgen -W "${!_referee_sides[*]}" -- "$cur")
        ;;
    side | side=)
        _referee_game_of "${_referee_positional[0]-}"
        if [[ -n $_referee_game ]]; then
            words=(${_referee_sides[$_referee_game]})
        else
            words=($_referee_all_sides)
        fi
        if [[ $kind == side= ]]; then
            compopt -o nospace 2>/dev/null
            for side in "${words[@]}"; do [[ $side= == "$cur"* ]] && COMPREPLY+=("$side="); done
        else
            mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
        fi
        ;;
    choice:*)
        kind=${kind#choice:}
        mapfile -t COMPREPLY < <(compgen -W "${kind//,/ }" -- "$cur")
        ;;
    esac
}

_referee() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev="" path=referee word i skip=0 kind n
    local -a kinds
    _referee_positional=()
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if ((skip)); then
            skip=0
        elif [[ $word == -* ]]; then
            [[ $word != *=* && " ${_referee_valued[$path]-} " == *" $word "* ]] && skip=1
        elif ((${#_referee_positional[@]} == 0)) && [[ " ${_referee_commands[$path]-} " == *" $word "* ]]; then
            path="$path $word"
        else
            _referee_positional+=("$word")
        fi
    done
    COMPREPLY=()
    if ((skip)); then
        _referee_value "${_referee_values[$path $prev]-none}" "$cur"
    elif [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "${_referee_options[$path]-}" -- "$cur")
    elif [[ -n ${_referee_commands[$path]-} ]] && ((${#_referee_positional[@]} == 0)); then
        mapfile -t COMPREPLY < <(compgen -W "${_referee_commands[$path]}" -- "$cur")
    else
        kinds=(${_referee_arguments[$path]-})
        n=${#_referee_positional[@]}
        kind=none
        if ((n < ${#kinds[@]})); then
            kind=${kinds[n]}
        elif ((${#kinds[@]})) && [[ ${kinds[-1]} == *... ]]; then
            kind=${kinds[-1]}
        fi
        _referee_value "${kind%...}" "$cur"
    fi
}

complete -F _referee referee
"""


def bash_script(root: Command) -> str:
    tables = _Tables(root)
    parts = [HEADER.format(shell="bash", load="source <(referee completion bash)   # in ~/.bashrc")]
    for name, table in _common(tables).items():
        parts.append(f"declare -gA {name}\n" + _assoc(name, table))
    parts.append(f"_referee_all_sides={_quote(_all_sides(tables))}")
    return "\n".join(parts) + "\n" + BASH_BODY


ZSH_BODY = r"""
# The game of $1 (a game's name, or the [Game tag in the first 100 lines of a readable file).
_referee_game_of() {
    local line word=${(L)1}
    integer n=0
    _referee_game=""
    if [[ -n $word && -n ${_referee_sides[$word]-} ]]; then _referee_game=$word; return 0; fi
    [[ -f $1 && -r $1 ]] || return 0
    while (( n++ < 100 )) && IFS= read -r line; do
        if [[ $line =~ '^\[Game[[:space:]]+"([^"]*)"' ]]; then
            _referee_game=${(L)match[1]}
            return 0
        fi
    done <"$1"
}

# Offers the values of kind $1 (see referee/cli/tree.py).
_referee_value() {
    local kind=$1 d
    local -a found sides
    case $kind in
    dir) _files -/ ;;
    file) _files ;;
    rgn) _files -g '*.(rgn|RGN)(-.)' ;;
    league)
        for d in ${PREFIX}*(N-/); do [[ -f $d/league.toml ]] && found+=("$d"); done
        if (( ${#found} )); then compadd -S / -- "${found[@]}"; else _files -/; fi
        ;;
    game) compadd -- ${(k)_referee_sides} ;;
    side|side=)
        _referee_game_of "${_referee_positional[1]-}"
        if [[ -n $_referee_game ]]; then
            sides=(${=_referee_sides[$_referee_game]})
        else
            sides=(${=_referee_all_sides})
        fi
        if [[ $kind == side= ]]; then compadd -S = -- "${sides[@]}"; else compadd -- "${sides[@]}"; fi
        ;;
    choice:*) compadd -- ${(s:,:)kind#choice:} ;;
    esac
}

_referee() {
    local path=referee word prev=${words[CURRENT-1]} kind
    integer i skip=0 n
    local -a kinds
    _referee_positional=()
    for (( i = 2; i < CURRENT; i++ )); do
        word=${words[i]}
        if (( skip )); then
            skip=0
        elif [[ $word == -* ]]; then
            [[ $word != *=* && " ${_referee_valued[$path]-} " == *" $word "* ]] && skip=1
        elif (( ${#_referee_positional} == 0 )) && [[ " ${_referee_commands[$path]-} " == *" $word "* ]]; then
            path="$path $word"
        else
            _referee_positional+=("$word")
        fi
    done
    if (( skip )); then
        _referee_value "${_referee_values[$path $prev]-none}"
    elif [[ $PREFIX == -* ]]; then
        compadd -- ${=_referee_options[$path]-}
    elif [[ -n ${_referee_commands[$path]-} ]] && (( ${#_referee_positional} == 0 )); then
        compadd -- ${=_referee_commands[$path]}
    else
        kinds=(${=_referee_arguments[$path]-})
        n=${#_referee_positional}
        kind=none
        if (( n < ${#kinds} )); then
            kind=${kinds[n+1]}
        elif (( ${#kinds} )) && [[ ${kinds[-1]} == *... ]]; then
            kind=${kinds[-1]}
        fi
        _referee_value "${kind%...}"
    fi
}

if [[ ${zsh_eval_context[-1]-} == loadautoload ]]; then
    _referee "$@"
else
    compdef _referee referee
fi
"""


def zsh_script(root: Command) -> str:
    tables = _Tables(root)
    parts = [
        "#compdef referee",
        HEADER.format(shell="zsh", load="source <(referee completion zsh)   # in ~/.zshrc, after compinit"),
        "typeset -ga _referee_positional",
    ]
    for name, table in _common(tables).items():
        parts.append(f"typeset -gA {name}\n" + _zsh_assoc(name, table))
    parts.append(f"typeset -g _referee_all_sides={_quote(_all_sides(tables))}")
    return "\n".join(parts) + "\n" + ZSH_BODY


FISH_BODY = r"""
# The command path ("referee league tick") and the positional words typed so far.
function __referee_walk
    set -l tokens (commandline -opc)
    set -l path referee
    set -l skip 0
    set -l positional
    for word in $tokens[2..-1]
        if test $skip = 1
            set skip 0
        else if string match -q -- '-*' $word
            if not string match -q -- '*=*' $word; and contains -- $word (__referee_table valued $path)
                set skip 1
            end
        else if test (count $positional) = 0; and contains -- $word (__referee_table commands $path)
            set path "$path $word"
        else
            set -a positional $word
        end
    end
    echo $path
    echo $skip
    test (count $positional) -gt 0; and printf '%s\n' $positional
end

# True when the command path is $argv[1] (an option or its value is being completed).
function __referee_in
    set -l walked (__referee_walk)
    test "$walked[1]" = "$argv[1]"
end

# True when the command path is $argv[1] and the word is its next sub-command.
function __referee_at_commands
    set -l walked (__referee_walk)
    test "$walked[1]" = "$argv[1]"; and test "$walked[2]" = 0; and test (count $walked) = 2
end

# The values of an argument of command $argv[1]: its kind from the positional words typed.
function __referee_argument
    set -l walked (__referee_walk)
    test "$walked[1]" = "$argv[1]"; and test "$walked[2]" = 0; or return
    set -l kinds (__referee_table arguments $argv[1])
    set -l n (math (count $walked) - 2)
    set -l kind none
    if test $n -lt (count $kinds)
        set kind $kinds[(math $n + 1)]
    else if test (count $kinds) -gt 0; and string match -q -- '*...' $kinds[-1]
        set kind $kinds[-1]
    end
    __referee_value (string replace -- '...' '' $kind)
end

# The game of $argv[1]: a game's name, or the [Game tag of a readable file.
function __referee_game_of
    set -l word (string lower -- "$argv[1]")
    if contains -- $word (__referee_table games)
        echo $word
    else if test -f "$argv[1]" -a -r "$argv[1]"
        head -n 100 -- "$argv[1]" | string match -r -g '^\[Game\s+"([^"]*)"' | head -n 1 | string lower
    end
end

# The values of kind $argv[1].
function __referee_value
    set -l kind $argv[1]
    set -l token (commandline -ct)
    switch $kind
        case dir
            __fish_complete_directories $token
        case file
            __fish_complete_path $token
        case rgn
            __fish_complete_suffix .rgn
        case league
            set -l found
            for d in $token*/
                test -f $d/league.toml; and set -a found $d
            end
            if test (count $found) -gt 0
                printf '%s\n' $found
            else
                __fish_complete_directories $token
            end
        case game
            __referee_table games
        case side side=
            set -l walked (__referee_walk)
            set -l game
            set -q walked[3]; and set game (__referee_game_of $walked[3])
            set -l sides
            if test -n "$game"
                set sides (__referee_table sides $game)
            else
                for each in (__referee_table games)
                    set -a sides (__referee_table sides $each)
                end
                set sides (printf '%s\n' $sides | sort -u)
            end
            if test $kind = side=
                printf '%s=\n' $sides
            else
                printf '%s\n' $sides
            end
        case 'choice:*'
            string split , -- (string replace -- 'choice:' '' $kind)
    end
end

"""


def _fish_table(tables: _Tables) -> str:
    """`__referee_table NAME [KEY]`: the words of a table, one a line."""
    lines = ["function __referee_table", "    switch $argv[1]"]
    for name, table in (
        ("commands", {key: [word for word, _ in value] for key, value in tables.commands.items()}),
        ("valued", tables.valued),
        ("arguments", tables.arguments),
        ("sides", {game: list(sides) for game, sides in tables.sides.items()}),
    ):
        lines.append(f"        case {name}")
        lines.append("            switch $argv[2]")
        for key, words in table.items():
            if words:
                lines.append(f"                case {_fish_quote(key)}")
                lines.append("                    printf '%s\\n' " + " ".join(_fish_quote(word) for word in words))
        lines.append("            end")
    lines.append("        case games")
    lines.append("            printf '%s\\n' " + " ".join(_fish_quote(game) for game in tables.sides))
    lines += ["    end", "end"]
    return "\n".join(lines)


def fish_script(root: Command) -> str:
    tables = _Tables(root)
    parts = [
        HEADER.format(shell="fish", load="referee completion fish > ~/.config/fish/completions/referee.fish"),
        "complete -c referee -e",
        "complete -c referee -f",
        _fish_table(tables),
        FISH_BODY,
    ]
    for command in tables.walked:
        path = _fish_quote(command.name)
        for sub in command.subcommands:
            parts.append(
                f"complete -c referee -n {_fish_quote('__referee_at_commands ' + path)}"
                f" -a {_fish_quote(sub.path[-1])} -d {_fish_quote(_short(sub.short_help))}"
            )
        for option in command.options:
            words = [f"complete -c referee -n {_fish_quote('__referee_in ' + path)}"]
            words += [
                f"-l {_fish_quote(name[2:])}" if name.startswith("--") else f"-s {_fish_quote(name[1:])}"
                for name in option.names
            ]
            if option.takes_value:
                kind = _kind(option.kind, option.words)
                words.append("-r -F" if kind == "file" else "-x")
                if kind not in ("none", "file"):
                    words.append(f"-a {_fish_quote('(__referee_value ' + kind + ')')}")
            if option.help:
                words.append(f"-d {_fish_quote(_short(option.help))}")
            parts.append(" ".join(words))
        if command.arguments:
            parts.append(f"complete -c referee -a {_fish_quote('(__referee_argument ' + path + ')')}")
    return "\n".join(parts) + "\n"


def _short(text: str) -> str:
    first = " ".join(text.split())
    return first if len(first) <= 70 else first[:67].rstrip() + "..."


def script(shell: str, root: Command) -> str:
    """The completion script of `shell` (bash, zsh or fish) for the command line `root`
    (`referee.cli.tree.command_tree`)."""
    return {"bash": bash_script, "zsh": zsh_script, "fish": fish_script}[shell](root)
