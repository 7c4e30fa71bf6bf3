"""The lesson modules: one per interactive lesson, each a grid, a compute() and its charts.

A lesson module follows the contract of :mod:`privacy_explorer.lesson` and is
named in a lesson's front matter by its dotted name (``compute:
lessons.memorization``). It holds what only its page needs: the experiment's
constants, the grid, ``compute(**point)`` turning the library's answers into
readouts and chart rows, and the charts. The science it calls lives in the
library modules one folder up (:mod:`compute`), and the look its charts share
in :mod:`compute.lessons.style`.
"""
