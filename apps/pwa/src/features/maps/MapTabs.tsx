import { Link } from '@tanstack/react-router';

/** The two office maps, one nav entry: responses and the team's last positions. */
export function MapTabs({ responses, team }: { responses: string; team: string }) {
  return (
    <nav className="map-tabs" aria-label="Maps">
      <Link to={responses} className="map-tabs__tab" activeProps={{ className: 'map-tabs__tab map-tabs__tab--on', 'aria-current': 'page' }}>Responses</Link>
      <Link to={team} className="map-tabs__tab" activeProps={{ className: 'map-tabs__tab map-tabs__tab--on', 'aria-current': 'page' }}>Team</Link>
    </nav>
  );
}
