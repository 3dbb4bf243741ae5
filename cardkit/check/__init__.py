"""Checking: load -> schema -> rules over card files (`validate`), the rules framework
(`rules`) and the rules that hold for every system (`core`)."""
