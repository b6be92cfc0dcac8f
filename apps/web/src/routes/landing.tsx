import { buttonClassName } from '@otto/ui';
import { Link } from 'react-router';
import { paths } from '../lib/paths';
import { useDocumentTitle } from '../lib/use-document-title';

const features = [
  {
    title: 'Every customer at your fingertips',
    text: 'Names, emails and phone numbers in one list. Type a few letters of a name, an email or a phone number and the right person is there.',
  },
  {
    title: 'Jobs from quote to paid',
    text: 'Keep track of the work you do for each customer: what was quoted, what is scheduled, what is done and what is still to be paid.',
  },
  {
    title: 'Yours, on your device',
    text: 'Otto keeps your data in this browser, on this computer. No account to create, no server to trust, and it works without an internet connection.',
  },
  {
    title: 'Fast, whatever the size',
    text: 'A real database runs right in the page, so lists, searches and saves answer instantly, even with thousands of customers.',
  },
];

export default function LandingScreen() {
  useDocumentTitle('The back office for your small business');
  return (
    <div className="landing">
      <header className="landing__bar">
        <span className="otto-brand">Otto</span>
        <Link to={paths.biz.href()} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
          Open Otto
        </Link>
      </header>
      <main id="main" className="landing__main">
        <section className="landing__hero" aria-labelledby="hero-title">
          <h1 id="hero-title">The back office for your small business, in a browser tab.</h1>
          <p className="landing__lead">
            Otto keeps your customers and the jobs you do for them in one tidy place, so you spend less time looking for a
            phone number and more time doing the work.
          </p>
          <div className="otto-cluster">
            <Link to={paths.customers.list.href()} className={buttonClassName({ variant: 'primary', size: 'lg' })}>
              Open your back office
            </Link>
            <Link to={paths.customers.new.href()} className={buttonClassName({ variant: 'ghost', size: 'lg' })}>
              Add a customer
            </Link>
          </div>
        </section>
        <section aria-labelledby="features-title" className="landing__features">
          <h2 id="features-title" className="otto-visually-hidden">
            What Otto does
          </h2>
          <ul>
            {features.map((f) => (
              <li key={f.title} className="otto-card">
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>
      <footer className="landing__footer">Otto keeps your data in this browser. Nothing leaves your device.</footer>
    </div>
  );
}
