/**
 * The whole surface the renderer gets: `window.planner`, an API client and a change feed.
 * ipcRenderer itself and its event objects never cross into the page, since either would let
 * page script send on any channel or reach `event.sender`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { bridgeChannels, type ChangeEvent, type PlannerBridge } from '../../shared/ipc.js';

const bridge: PlannerBridge = {
  request(request) {
    return ipcRenderer.invoke(bridgeChannels.request, request);
  },
  onChange(listener) {
    if (typeof listener !== 'function') throw new TypeError('onChange needs a listener function');
    // A wrapper per subscription, so unsubscribing removes exactly this one and the page
    // only ever sees the events, not the IPC event.
    const forward = (_event: IpcRendererEvent, events: ChangeEvent[]) => listener(events);
    ipcRenderer.on(bridgeChannels.change, forward);
    return () => {
      ipcRenderer.removeListener(bridgeChannels.change, forward);
    };
  },
};

contextBridge.exposeInMainWorld('planner', bridge);
