import { Outlet } from 'react-router';

/** Layout of the jobs section (spec: Jobs layout). */
export default function JobsLayout() {
  return (
    <div className="otto-stack otto-stack--lg">
      <Outlet />
    </div>
  );
}
