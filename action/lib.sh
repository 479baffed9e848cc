# shellcheck shell=bash
# WORDS, ERROR and SCALAR are what these functions give their callers.
# shellcheck disable=SC2034
# What the action's scripts (run.sh, install.sh) share: reading a command as a shell
# would split it (without running any of it), quoting words back for the log, fencing
# text that is data into the job summary, and printing text that is data into the log
# without the runner reading it as a workflow command.

# Splits a command given as a string into the array WORDS, as a POSIX shell splits words:
# blanks separate words; '...' keeps everything literally; "..." keeps everything but
# \" \\ \$ \` and a backslash before a newline; a backslash outside quotes keeps the next
# character. Nothing is expanded or run: what a shell would expand or run ($, `, globs,
# ~, |, ;, &, <, >, (, ), {, }, a # comment) is refused with an error unless it is
# quoted, so that the words are what a shell would have run. Or the string is a YAML
# list: a flow sequence (["python3", "my answer.py"], as toJSON gives) or one "- item" a
# line. Returns 1 with ERROR set when the string cannot be read.
split_command() {
    local text=$1
    WORDS=()
    ERROR=""
    local trimmed=${text#"${text%%[![:space:]]*}"}
    case "$trimmed" in
    '['*) split_flow_list "$trimmed"; return ;;
    '- '* | '-'$'\n'*) split_block_list "$text"; return ;;
    esac
    split_words "$text"
}

# The shell words of $1 into WORDS (see split_command).
split_words() {
    local s=$1 n=${#1} i=0 c next word="" inword=0 quote=""
    WORDS=()
    ERROR=""
    while [ "$i" -lt "$n" ]; do
        c=${s:i:1}
        if [ "$quote" = "'" ]; then
            if [ "$c" = "'" ]; then quote=""; else word+=$c; fi
        elif [ "$quote" = '"' ]; then
            case "$c" in
            '"') quote="" ;;
            "\\")
                next=${s:i+1:1}
                case "$next" in
                '"' | "\\" | '$' | '`') word+=$next; i=$((i + 1)) ;;
                $'\n') i=$((i + 1)) ;;
                *) word+=$c ;;
                esac
                ;;
            '$' | '`')
                ERROR="'$c' inside double quotes would be expanded by a shell, which the action does not run: quote it with '...' or a backslash"
                return 1
                ;;
            *) word+=$c ;;
            esac
        else
            case "$c" in
            $'\n')
                next=${s:i+1}
                if [ -n "${next//[[:space:]]/}" ]; then
                    ERROR="a second line is a second command to a shell, and the action runs one program: put the command on one line, or use a YAML list"
                    return 1
                fi
                if [ "$inword" = 1 ]; then WORDS+=("$word"); fi
                word=""
                inword=0
                ;;
            ' ' | $'\t' | $'\r')
                if [ "$inword" = 1 ]; then WORDS+=("$word"); fi
                word=""
                inword=0
                ;;
            "'" | '"') quote=$c; inword=1 ;;
            "\\")
                if [ $((i + 1)) -ge "$n" ]; then
                    ERROR="the command ends with a backslash"
                    return 1
                fi
                next=${s:i+1:1}
                i=$((i + 1))
                if [ "$next" != $'\n' ]; then word+=$next; inword=1; fi
                ;;
            '$' | '`' | '|' | '&' | ';' | '<' | '>' | '(' | ')' | '*' | '?' | '[' | '{' | '}')
                ERROR="'$c' is shell syntax, and the action runs no shell: quote it ('$c') to pass it to the program, or use a YAML list"
                return 1
                ;;
            '~' | '#')
                if [ "$inword" = 0 ]; then
                    ERROR="'$c' at the start of a word is shell syntax, and the action runs no shell: quote it ('$c')"
                    return 1
                fi
                word+=$c
                ;;
            *) word+=$c; inword=1 ;;
            esac
        fi
        i=$((i + 1))
    done
    if [ -n "$quote" ]; then
        ERROR="the quote $quote is not closed"
        return 1
    fi
    if [ "$inword" = 1 ]; then WORDS+=("$word"); fi
    return 0
}

# One YAML scalar of a list (trimmed): 'single' ('' is one quote), "double" (with the
# escapes \" \\ \/ \n \t \r), or plain. Into SCALAR; returns 1 with ERROR set when a quote
# is not closed.
yaml_scalar() {
    local s=$1 body
    s=${s#"${s%%[![:space:]]*}"}
    s=${s%"${s##*[![:space:]]}"}
    case "$s" in
    "'"*"'")
        body=${s:1:${#s}-2}
        SCALAR=${body//"''"/"'"}
        ;;
    '"'*'"')
        body=${s:1:${#s}-2}
        SCALAR=""
        local i=0 c
        while [ "$i" -lt "${#body}" ]; do
            c=${body:i:1}
            if [ "$c" = "\\" ]; then
                i=$((i + 1))
                case "${body:i:1}" in
                n) SCALAR+=$'\n' ;;
                t) SCALAR+=$'\t' ;;
                r) SCALAR+=$'\r' ;;
                '"' | "\\" | /) SCALAR+=${body:i:1} ;;
                *)
                    ERROR="a list item has the escape \\${body:i:1}, which the action does not read: $s"
                    return 1
                    ;;
                esac
            else
                SCALAR+=$c
            fi
            i=$((i + 1))
        done
        ;;
    "'"* | '"'*)
        ERROR="a list item's quote is not closed: $s"
        return 1
        ;;
    *) SCALAR=$s ;;
    esac
}

# A YAML flow sequence ([a, "b c"]) into WORDS: items split at commas outside quotes.
split_flow_list() {
    local s=$1 body i=0 c quote="" item=""
    s=${s%"${s##*[![:space:]]}"}
    case "$s" in
    *']') ;;
    *) ERROR="the list is not closed with ]"; return 1 ;;
    esac
    body=${s:1:${#s}-2}
    while [ "$i" -lt "${#body}" ]; do
        c=${body:i:1}
        if [ -n "$quote" ]; then
            item+=$c
            if [ "$quote" = '"' ] && [ "$c" = "\\" ]; then
                item+=${body:i+1:1}
                i=$((i + 1))
            elif [ "$c" = "$quote" ]; then
                quote=""
            fi
        elif [ "$c" = , ]; then
            yaml_scalar "$item" || return 1
            WORDS+=("$SCALAR")
            item=""
        else
            case "$c" in
            "'" | '"') quote=$c ;;
            '[' | ']' | '{' | '}')
                ERROR="a list item of the command is itself a list or a map: quote it"
                return 1
                ;;
            esac
            item+=$c
        fi
        i=$((i + 1))
    done
    if [ -n "$quote" ]; then
        ERROR="a list item's quote is not closed"
        return 1
    fi
    # A trailing comma leaves an empty last item, as in YAML.
    if [ -n "${item//[[:space:]]/}" ]; then
        yaml_scalar "$item" || return 1
        WORDS+=("$SCALAR")
    fi
}

# A YAML block sequence (one "- item" a line) into WORDS.
split_block_list() {
    local line
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line%$'\r'}
        [ -z "${line//[[:space:]]/}" ] && continue
        line=${line#"${line%%[![:space:]]*}"}
        case "$line" in
        '-') WORDS+=("") ;;
        '- '*)
            yaml_scalar "${line#- }" || return 1
            WORDS+=("$SCALAR")
            ;;
        *)
            ERROR="a list of one '- item' a line has a line that is not an item: $line"
            return 1
            ;;
        esac
    done <<<"$1"
}

# The words quoted back as a shell would read them: plain when they are safe, in '...'
# otherwise (a ' inside written '\'').
quote_words() {
    local out="" word q="'\\''"
    for word in "$@"; do
        [ -n "$out" ] && out+=" "
        case "$word" in
        '' | *[!A-Za-z0-9_./:=@%+,-]*) out+="'${word//\'/$q}'" ;;
        *) out+=$word ;;
        esac
    done
    printf '%s\n' "$out"
}

# A fence for a Markdown code block around the file $1: one backtick longer than the
# longest run of backticks in it, at least three. A line of the file can then never close
# the block (CommonMark closes a block only with a run at least as long as the opening).
fence_for() {
    local longest
    longest=$(LC_ALL=C tr -c '`' '\n' <"$1" | LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
    local n=$((longest + 1))
    [ "$n" -lt 3 ] && n=3
    local fence=""
    while [ "${#fence}" -lt "$n" ]; do fence+='`'; done
    printf '%s\n' "$fence"
}

# The file $1 as a Markdown code block, cut at $2 bytes (default 512 KiB; the summary of a
# step takes 1 MiB at most): its own text stays inside the block whatever it holds.
code_block() {
    local file=$1 limit=${2:-524288} fence
    local cut=$file
    if [ "$(wc -c <"$file")" -gt "$limit" ]; then
        cut=$(mktemp)
        head -c "$limit" "$file" >"$cut"
    fi
    fence=$(fence_for "$cut")
    printf '%stext\n' "$fence"
    cat "$cut"
    # A last line without its newline would swallow the closing fence.
    if [ -s "$cut" ] && [ -n "$(tail -c 1 "$cut")" ]; then echo; fi
    printf '%s\n' "$fence"
    if [ "$cut" != "$file" ]; then
        rm -f "$cut"
        printf '\n(cut at %s bytes: the whole text is in the log)\n' "$limit"
    fi
}

# Prints the files to stdout for the log, with the runner's reading of workflow commands
# (::error::, ::add-mask::, ...) stopped around them: an answer's output is data. The
# token that resumes them is made here, after the answer has stopped, from the system's
# random source, and is never in the answer's reach.
print_as_data() {
    local token
    token=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
    echo "::stop-commands::$token"
    local file
    for file in "$@"; do
        [ -s "$file" ] || continue
        cat "$file"
        if [ -n "$(tail -c 1 "$file")" ]; then echo; fi
    done
    echo "::$token::"
}

# A workflow command's message: % and line ends escaped as the runner reads them.
annotation_text() {
    local s=$1
    s=${s//'%'/'%25'}
    s=${s//$'\r'/'%0D'}
    s=${s//$'\n'/'%0A'}
    printf '%s' "$s"
}
