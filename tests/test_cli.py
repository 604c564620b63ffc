"""The command line: one-line errors, argument parsing, config building; one real-browser run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import statecrawl
from statecrawl.cli import build_config, main, parser

URL = "http://127.0.0.1:8000/"


def error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``main(argv)``, check it failed with exit 1 and one stderr line; return that line."""
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("statecrawl: error: ")
    assert "Traceback" not in err
    return lines[0]


def config_of(argv: list[str]):
    args = parser().parse_args(["crawl", *argv])
    return build_config(args, args.urls)


# ---- one-line errors --------------------------------------------------------------------------


def test_relative_url_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    line = error_line(capsys, ["crawl", "foo"])
    assert line == "statecrawl: error: not an absolute http(s) URL: 'foo'"


@pytest.mark.parametrize("url", ["ftp://x", "http://", "http://127.0.0.1:99999/"])
def test_other_bad_urls_are_one_line_errors(capsys: pytest.CaptureFixture[str], url: str) -> None:
    assert repr(url) in error_line(capsys, ["crawl", url])


def test_no_url_and_no_config_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert "start URL" in error_line(capsys, ["crawl"])


def test_missing_config_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    line = error_line(capsys, ["crawl", URL, "--config", str(path)])
    assert line == f"statecrawl: error: config file not found: {path}"


def test_malformed_config_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[limits\nmax_depth = 2\n", encoding="utf-8")
    line = error_line(capsys, ["crawl", URL, "-c", str(path)])
    assert "is not valid TOML" in line
    assert str(path) in line


def test_unknown_key_in_config_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "unknown.toml"
    path.write_text("[limits]\nmax_dept = 2\n", encoding="utf-8")
    line = error_line(capsys, ["crawl", URL, "--config", str(path)])
    assert "unknown setting" in line
    assert "max_dept" in line


def test_bad_flag_value_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    line = error_line(capsys, ["crawl", URL, "--max-depth", "-1"])
    assert "max_depth" in line


def test_unknown_model_or_strategy_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Rejected when the explorer is built, before any browser starts."""
    line = error_line(capsys, ["crawl", URL, "--model", "psychic"])
    assert line.startswith("statecrawl: error: unknown state model 'psychic'")
    line = error_line(capsys, ["crawl", URL, "--strategy", "psychic"])
    assert line.startswith("statecrawl: error: unknown strategy 'psychic'")


def test_bad_scope_regex_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert "scope.include" in error_line(capsys, ["crawl", URL, "--scope", "(oops"])


# ---- argparse ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["badvalue", "=x"])
def test_input_without_name_equals_value_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["crawl", URL, "--input", value])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "expected NAME=VALUE" in err
    assert "usage: statecrawl crawl" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"statecrawl {statecrawl.__version__}\n"


def test_a_command_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    assert "usage: statecrawl" in capsys.readouterr().err


# ---- build_config -----------------------------------------------------------------------------


def test_flags_build_the_config(tmp_path: Path) -> None:
    config = config_of(
        [
            URL, "https://example.test/",
            "--out", str(tmp_path / "out"),
            "--max-depth", "1", "--max-states", "20", "--max-time", "30",
            "--scope", "^http://127", "--scope", "example", "--exclude", "/logout",
            "--input", "q=laser", "--input", "q=maser", "--input", " year =2020",
            "--input", "empty=",
            "--browsers", "2", "--wait-ms", "10", "--model", "text", "--strategy", "random",
            "--no-archive",
        ]
    )
    assert config.start_urls == (URL, "https://example.test/")
    assert config.out == tmp_path / "out"
    assert (config.limits.max_depth, config.limits.max_states) == (1, 20)
    assert config.limits.max_time == 30.0
    assert config.scope.include == ("^http://127", "example")
    assert config.scope.exclude == ("/logout",)
    assert dict(config.inputs.values) == {
        "q": ("laser", "maser"),
        "year": ("2020",),
        "empty": ("",),
    }
    assert config.browser.count == 2
    assert config.timing.wait_ms == 10
    assert (config.model, config.strategy) == ("text", "random")
    assert config.archive.enabled is False


def test_no_flags_give_the_defaults() -> None:
    assert config_of([URL]) == statecrawl.Config(start_urls=(URL,))


def test_flags_win_over_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "crawl.toml"
    path.write_text(
        f'start_urls = ["{URL}"]\nmodel = "exact"\n'
        "[limits]\nmax_depth = 4\nmax_states = 9\n[archive]\nenabled = false\n",
        encoding="utf-8",
    )
    from_file = config_of(["--config", str(path)])
    assert from_file.start_urls == (URL,)
    assert from_file.limits.max_depth == 4
    assert from_file.archive.enabled is False
    other = "http://127.0.0.1:9000/"
    flags = config_of(["--config", str(path), other, "--max-depth", "1", "--model", "dom"])
    assert flags.start_urls == (other,)
    assert flags.limits.max_depth == 1
    assert flags.limits.max_states == 9
    assert flags.model == "dom"
    assert flags.archive.enabled is False


# ---- the installed command, with a real browser -----------------------------------------------


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "statecrawl.cli", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120, check=False,
    )


def test_command_bad_url_exits_1_with_one_line(tmp_path: Path) -> None:
    done = run(["crawl", "foo"], tmp_path)
    assert done.returncode == 1
    assert done.stderr == "statecrawl: error: not an absolute http(s) URL: 'foo'\n"
    assert done.stdout == ""


def test_command_unreachable_host_exits_1_with_one_line(tmp_path: Path) -> None:
    """Starts Chromium: port 9 on loopback is closed, so the first load fails."""
    done = run(["crawl", "http://127.0.0.1:9/", "--out", str(tmp_path / "out"), "-q"], tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("statecrawl: error: cannot load http://127.0.0.1:9/")
    assert "Traceback" not in done.stderr


def test_demo_reaches_every_result_page_detail_and_tab(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's main job: checked against the demo app's own data, not fixed counts."""
    from statecrawl.demo_app.coverage import coverage
    from statecrawl.demo_app.data import DEMO_QUERIES

    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "-q", "--browsers", "2", "--no-archive"]) == 0
    printed = capsys.readouterr().out
    assert "states" in printed and str(out) in printed
    result = statecrawl.load(out)
    states = list(result.states())
    found = coverage(states, {s["id"]: result.html(s["id"]) for s in states}, DEMO_QUERIES)
    for query in found["queries"]:
        assert query.pages == query.expected_pages, query.query
        assert query.details == query.expected_details, query.query
        for number in query.expected_details:
            assert found["tabs"][number] == {"claims", "description", "citations"}, number
