import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';
import { messages } from './locales/en/messages.po';

// Screens and helpers under test speak English, the source catalog, as a first visit does.
i18n.loadAndActivate({ locale: 'en', locales: ['en-NG'], messages });
