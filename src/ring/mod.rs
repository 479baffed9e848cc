//! Ring Collector: a player and a patrolling guard on a fixed 7x5 map (RULES.md section 3).
