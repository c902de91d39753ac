/// The text of `todo help`.
enum HelpText {
    static let text = """
    todo: a todo list with undo and redo that persist across runs.

    Usage: todo [options] <command> [arguments]
           todo [options]              (an interactive shell on a terminal; otherwise
                                        reads commands from standard input, one per line)

    Items are numbered by their position in the full list, as "todo list" shows them;
    each also has a short stable id (list --ids; always shown on a server), which every
    command takes in place of the number (todo done 4f2a).

    Commands:
      add <title...>           add an item
      list [--all|--open|--done] [--ids] [--json]
                               show the items (all by default)
      done <n>                 mark item n done
      undone <n>               mark item n not done
      edit <n> <title...>      change the title of item n
      rm <n>                   remove item n
      move <n> <to>            move item n to position <to>
      clear                    remove the done items
      undo [<steps>|<tag>] [--strict]
                               undo one step, some steps, or back to a tag; on a shared
                               list, what others changed since is skipped and reported,
                               or with --strict the undo is refused
      redo [<steps>|<tag>] [--strict]
                               redo one step, some steps, or up to a tag
      tag <name>               name the current version, for undo/redo/goto <name>
      history [--mine] [--json]
                               show the history: every version, branches included (on a
                               server: everyone's steps with authors; --mine: your own tree)
      goto <version>|<tag>     go to any version (v3, as "history" shows it), on any branch
      earlier [<n>|<duration>] go n versions (default 1), or 30s, 10m, 2h, 1d, back in time
                               (past either end, it stops there)
      later [<n>|<duration>]   ...or forward in time, in the order versions were made
      begin                    open a scope: its changes become one undo step...
      commit                   ...when committed,
      rollback                 ...or are all undone and forgotten
      check                    read the whole file (or your server history), every step,
                               and report any damage (exit 1) or say it is sound
      export --json            print the list in the interchange format (no history)
      import --json <file>     replace the list with an exported one (one undo step)
      watch [--for SECONDS] [--count N]
                               on a server: print others' changes as they are committed,
                               with who made them, until Ctrl-C, the end of input, or
                               the time or number of changes given
      help                     show this help
      quit                     leave the shell

    Options (before the command word; everything after it is the command's):
      --file PATH              the data file, an SQLite database (also TODO_FILE; default
                               $XDG_DATA_HOME/todo/todo.db or ~/.local/share/todo/todo.db)
      --database URL           a list shared on a PostgreSQL server instead of a file
                               (postgresql://user@host/dbname, or key=value pairs; also
                               TODO_DATABASE; libpq's PG* variables and ~/.pgpass apply)
      --as NAME                who you are on a server: your own undo history (also
                               TODO_USER; default your login name); refused on a file,
                               which keeps one history for everyone
      --history-limit N        keep at most N undo steps (also TODO_HISTORY_LIMIT; default 100)
      --keep-going             in a script, go on after a failed line
      --                       end of options (todo add -- -5 degrees)

    Exit codes: 0 success, 1 bad input or unusable data file, 2 wrong usage.
    TODO_LOCK_TIMEOUT: seconds to wait for another todo's lock (default 10).
    TODO_LOG_HORIZON: list versions a server keeps others' changes for (default 10000);
    what you did before a longer absence can no longer be undone.
    Color only on a terminal; set NO_COLOR to turn it off.
    Long work on a server shows its progress on standard error, on a terminal only.

    """
}
