"""The shipped data: a package only so that it installs, and is found, with the code."""
