"""One session's play: its operations (``operations``), the optimistic store of the common
move (``optimistic``), the locked path (``locked``), the answer (``answer``), the tables
kept between moves (``tables``), hints (``hints``, ``hint_pool``), and the shapes and limits
they share (``outcome``).  docs/architecture.md draws the path of one move."""
