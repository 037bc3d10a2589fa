"""``make explore``'s Voila command: bound to 127.0.0.1, the explorers' addresses (the server itself
is started in tests/integration/test_serve.py)."""

from evalkit.explore.serve import explorer_urls, free_port, voila_command


def test_voila_command_binds_to_localhost_only():
    cmd = voila_command(8123)
    assert "--Voila.ip=127.0.0.1" in cmd and "--port=8123" in cmd and "--no-browser" in cmd
    assert "--VoilaExecutor.skip_cells_with_tag=exercise" in cmd
    assert set(explorer_urls(8123)) == {"explore_sakai2017", "explore_wang2015", "explore_kim2010"}
