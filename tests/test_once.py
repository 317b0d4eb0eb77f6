"""Values built on first need, once: a burst of first lookups waits for one build."""

import threading
import time

from bot.once import Once


def test_threads_asking_at_once_wait_for_one_build():
    builds = []

    def build() -> object:
        builds.append(threading.get_ident())
        time.sleep(0.05)  # long enough for every other thread to ask meanwhile
        return object()

    value = Once(build)
    assert not value.built
    results = []
    threads = [threading.Thread(target=lambda: results.append(value())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1
    assert len(results) == 8 and all(result is results[0] for result in results)
    assert value.built and value() is results[0]


def test_warm_up_builds_what_the_first_lookups_would(live):
    answers = live._answers
    passages = answers.index.passages
    lazy = [
        answers.cards.card_index,
        passages.edition_lean.card_vocabulary,
        passages.questions.known_words,
    ]
    assert all(isinstance(value, Once) for value in lazy)
    assert not any(value.built for value in lazy)  # start-up itself builds none of them
    live.warm_up()
    assert all(value.built for value in lazy)
    card_index = answers.cards.card_index()
    live.warm_up()  # again: nothing is built twice
    assert answers.cards.card_index() is card_index
