"""Start-up: record each promotion's config in the log, or refuse one that contradicts it.

The log, not today's files, says what a promotion ran under. At start the venue's file (or the
shipped one) is compared with the promotion's config after replay; a promotion whose config is
not in the log yet, or whose file changed, gets a `PromotionConfigured` event, unless the change
contradicts what already happened (docs/config.md), which stops the start with a sentence
naming the file, the key and the event.
"""

from __future__ import annotations

from controller.application.service import Service
from controller.application.settings import config_path, load
from controller.application.show import View
from controller.domain.config import ConfigError, Configurable, HistoryItem, PromotionConfigured
from controller.domain.events import event_from


def record_configs(service: Service) -> list[View]:
    """Log the configs the venue's files give, after `service.replay()`; the views that
    changed (for the clients of a standby taking the lead). Raises `ConfigError` (and logs
    nothing) if any file is wrong or conflicts."""
    events: list[PromotionConfigured] = []
    history: list[HistoryItem] | None = None
    for feature in service.show.features:
        if not isinstance(feature, Configurable):
            continue
        path = config_path(feature.name)
        config = load(feature.name, feature.config_model, path)
        if feature.config_logged and config == feature.config:
            continue
        if config != feature.config:
            if history is None:
                history = [(s.seq, event_from(s.type, s.version, s.data))
                           for s in service.log.read()]
            conflict = feature.conflict(config, history)
            if conflict is not None:
                raise ConfigError(conflict.sentence(path))
        events.append(PromotionConfigured(feature.name, config.to_data()))
    if not events:
        return []
    return service.record(f"config:{service.clock()}:{service.log.last_seq}", events)
