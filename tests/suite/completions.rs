//! `mancala completions bash|zsh|fish`, through the real binary: each
//! script is generated from the one command line, and bash's completes
//! for real.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

fn completions(shell: &str) -> std::process::Output {
    Command::new(BIN)
        .args(["completions", shell])
        .output()
        .unwrap()
}

#[test]
fn each_shell_gets_its_own_script_naming_every_command() {
    for (shell, marker) in [
        ("bash", "complete -F _mancala"),
        ("zsh", "#compdef mancala"),
        ("fish", "complete -c mancala"),
    ] {
        let out = completions(shell);
        assert!(out.status.success(), "{shell}: {out:?}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}: {script}");
        for word in [
            "solitaire",
            "arena",
            "replay",
            "completions",
            "north",
            "variant",
        ] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let out = completions("tcsh");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("tcsh"), "{err}");
    assert!(
        err.contains("(expected one of: bash, zsh, fish)"),
        "the one line names the accepted values: {err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Options whose values clap now knows keep their own one-line message
/// naming the option and every accepted value, and exit with 2.
#[test]
fn a_bad_option_value_names_the_option_and_the_accepted_values() {
    for (args, option, values) in [
        (
            &["--capture", "x"][..],
            "--capture",
            "always, nonempty, never",
        ),
        (&["--sowing", "x"][..], "--sowing", "single, relay"),
        (&["--sweep", "x"][..], "--sweep", "owner, none"),
        (
            &["--first", "x"][..],
            "--first",
            "south, north, alternate or random",
        ),
        (
            &["--north", "x"][..],
            "--north",
            "tree:N, easy, medium, hard, perfect or level:N",
        ),
        (&["--variant", "x"][..], "--variant", "kalah, avalanche"),
    ] {
        let out = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(option) && err.contains(values), "{err}");
    }
}

/// Loads the bash script into a real bash and asks it to complete
/// `mancala soli`, `mancala --nor` and `mancala solitaire --pl`.
#[test]
fn the_bash_script_completes_commands_and_option_values() {
    if Command::new("bash").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI needs bash");
        return;
    }
    let complete = |words: &str| {
        let script = format!(
            "source <('{BIN}' completions bash)\n\
             COMP_WORDS=({words}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n\
             COMP_LINE=\"${{COMP_WORDS[*]}}\"; COMP_POINT=${{#COMP_LINE}}\n\
             _mancala mancala \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
             printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let out = Command::new("bash").arg("-c").arg(script).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let commands = complete("mancala soli");
    assert_eq!(commands.trim(), "solitaire", "{commands}");
    let options = complete("mancala --nor");
    assert_eq!(options.trim(), "--north", "{options}");
    let solitaire = complete("mancala solitaire --pl");
    assert_eq!(solitaire.trim(), "--plan", "{solitaire}");
    // The values of the options that take one of a few words.
    for (words, expected) in [
        ("mancala --capture n", "never nonempty"),
        ("mancala --sowing r", "relay"),
        ("mancala --sweep o", "owner"),
        ("mancala --first a", "alternate"),
        ("mancala --north per", "perfect"),
        ("mancala --south h", "hard human"),
        ("mancala --variant av", "avalanche"),
        ("mancala arena --capture al", "always"),
        ("mancala position --to-move n", "north"),
        ("mancala completions z", "zsh"),
        ("mancala replay --sp", "--speed"),
        ("mancala join --no", "--no-animation"),
    ] {
        let found = complete(words);
        let mut found: Vec<&str> = found.split_whitespace().collect();
        found.sort_unstable();
        assert_eq!(found.join(" "), expected, "{words}");
    }
}
