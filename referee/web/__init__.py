"""The big screen: a read-only web page of the game in play, served by the referee itself."""
