"""The loopback Apple with the developer teams an app transfer moves between (contract v4): the
app's own team (the stand-in's home team), and teams B and C, each with its own Sign in with Apple
key (signin_tools/standins/apple_migration.py)."""
import pytest

from signin_tools.standins import AppleAuthServer

TEAM_B, TEAM_C = "TEAMB67890", "TEAMC13579"


@pytest.fixture
def apple(idp):
    with AppleAuthServer(idp) as server:
        server.migration.add_team(TEAM_B, "KEYB000001")
        server.migration.add_team(TEAM_C, "KEYC000001")
        yield server
