"""The play socket (``consumer``) and the batched asyncio driver that stores its moves
(``driver``)."""
